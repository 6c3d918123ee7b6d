import { z } from 'zod';
import type { Capability, ExecutionContext, ToolResult } from '../core/capabilities/capability.js';
import { FermixError } from '../core/errors.js';
import { defineBuiltin } from './define-builtin.js';
import { lazySchema } from './lazy-schema.js';
import { lexicalRank, nameSubstringMatches } from './search/lexical.js';
import type { ToolSearchService } from './search/service.js';

export const toolSearchInput = lazySchema(() =>
  z.object({
    query: z.string().min(1).describe('What the tool should do, e.g. "create a github issue" or "search notion pages".'),
    limit: z
      .number()
      .int()
      .min(1)
      .max(20)
      .default(5)
      .describe('Maximum matches to return (default 5; values outside 1-20 are clamped).'),
  }),
);

export const toolSearchOutput = lazySchema(() =>
  z.object({
    query: z.string(),
    total_available: z.number().int().describe('Number of deferred tools searched.'),
    matches: z.array(
      z.object({
        name: z.string(),
        plugin: z.string().describe('"mcp" or the owning plugin name.'),
        description: z.string().max(400).describe('Tool description, cut at 400 characters.'),
      }),
    ),
  }),
);

export type ToolSearchResult = z.infer<ReturnType<typeof toolSearchOutput>>;

/** Reference §2.2 / §6: limit 5 by default and at most 20, 400-char descriptions. */
export const DEFAULT_LIMIT = 5;
export const MAX_LIMIT = 20;
export const DESCRIPTION_CAP = 400;

export function ownerOf(cap: Capability): string {
  return typeof cap.metadata.plugin === 'string' && cap.metadata.plugin ? cap.metadata.plugin : 'mcp';
}

function match(cap: Capability): ToolSearchResult['matches'][number] {
  const description = cap.description.length > DESCRIPTION_CAP ? `${cap.description.slice(0, DESCRIPTION_CAP - 1)}…` : cap.description;
  return { name: cap.name, plugin: ownerOf(cap), description };
}

export function clampLimit(limit: unknown): number {
  const value = typeof limit === 'number' && Number.isFinite(limit) ? Math.trunc(limit) : DEFAULT_LIMIT;
  return Math.min(MAX_LIMIT, Math.max(1, value));
}

/**
 * Ranks `catalog` for `query` lexically (BM25F with stems and a server prior: ./search/bm25f.ts).
 * Returns matches best first; when no term matches, tools whose names contain the query; else [].
 */
export function rankTools(catalog: readonly Capability[], query: string, limit = DEFAULT_LIMIT): { matches: ToolSearchResult['matches']; topScore: number } {
  const wanted = clampLimit(limit);
  const top = lexicalRank(catalog, query, wanted);
  if (top.length > 0) return { matches: top.map(({ doc }) => match(catalog[doc])), topScore: top[0].score };
  return { matches: nameSubstringMatches(catalog, query, wanted).map((doc) => match(catalog[doc])), topScore: 0 };
}

/**
 * Hybrid mode (BM25F fused with embeddings, ./search/hybrid.ts) when `[fermix_core.tools.tool_search]
 * embeddings` is set; undefined means "rank lexically" — also when the provider fails, which is logged
 * once and never fails the search.
 */
async function hybridMatches(catalog: readonly Capability[], query: string, limit: number, context: ExecutionContext): Promise<ToolSearchResult['matches'] | undefined> {
  const service = context.services?.toolSearch as ToolSearchService | undefined;
  if (!service?.hybrid || catalog.length === 0) return undefined;
  try {
    const docs = await service.hybrid.rank(catalog, query, limit, context.signal);
    return docs.length > 0 ? docs.map((doc) => match(catalog[doc])) : undefined;
  } catch (error) {
    if (context.signal?.aborted) throw error;
    service.warn('tool_search: the embeddings provider failed; ranking by keywords only', { error: error instanceof Error ? error.message : String(error) });
    return undefined;
  }
}

/** The deferred catalog this caller may see, handed in by the agent loop (main/agent/request-builder.ts). */
function catalogFrom(context: ExecutionContext): readonly Capability[] {
  const provider = context.services?.deferredTools;
  if (typeof provider !== 'function') {
    throw new FermixError({
      code: 'registry_unavailable',
      message: 'tool_search has no deferred-tool catalog on this path; it searches the tools the agent loop defers.',
      hint: 'Use it from a chat turn, or list tools with `fermix capabilities list`.',
    });
  }
  return (provider as () => readonly Capability[])();
}

export async function searchDeferredTools(args: Record<string, unknown>, context: ExecutionContext): Promise<ToolResult> {
  const query = typeof args.query === 'string' ? args.query.trim() : '';
  if (query === '') {
    throw new FermixError({ code: 'missing_query', message: 'tool_search needs a query.', hint: 'Call tool_search with {"query": "<what the tool should do>"}, e.g. {"query": "create a github issue"}.' });
  }
  const catalog = catalogFrom(context);
  const limit = clampLimit(args.limit);
  const matches = (await hybridMatches(catalog, query, limit, context)) ?? rankTools(catalog, query, limit).matches;
  if (matches.length === 0) {
    throw new FermixError({
      code: 'no_matches',
      message: `No deferred tool matches "${query}" (${catalog.length} searched).`,
      hint: 'Try other words (what the tool does, or the service name); the deferred tool names are listed in your prompt under "Deferred tools".',
      data: { query, total_available: catalog.length },
    });
  }
  const result: ToolSearchResult = { query, total_available: catalog.length, matches };
  return { text: JSON.stringify(result), data: result };
}

export const toolSearch = defineBuiltin({
  name: 'tool_search',
  description:
    'Search deferred plugin and MCP tools by what they do (keywords over names, servers, descriptions and parameters; semantic too when embeddings are on); returns matching tool names.',
  policy_class: 'read_only',
  category: 'system',
  input: toolSearchInput,
  output: toolSearchOutput,
  when_to_use: 'Find a deferred plugin or MCP tool by what it does when you do not know its name.',
  examples: [
    { args: { query: 'create a github issue' }, note: 'find the issue-creation tool' },
    { args: { query: 'calendar events next week', limit: 10 }, note: 'wider search' },
  ],
  failure_modes: [
    { tag: 'missing_query', description: 'query is absent or blank' },
    { tag: 'no_matches', description: 'nothing matched; try other words' },
  ],
  executor: searchDeferredTools,
  metadata: { deferral_bridge: true },
});
