/**
 * The tool_search evaluation sets (bench/data):
 * - tool-corpus.json + tool-queries.json: real-world tool names and descriptions, with queries written
 *   together with the corpus — the ranker is tuned on this set;
 * - heldout-tools.json + heldout-queries.json: 406 tools of public MCP servers described in our own
 *   words and 425 queries written before any ranking ran on them — never tuned on.
 * Both are turned into capabilities as an MCP client or a plugin would register them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Capability } from '../../main/core/capabilities/index.js';

export interface CorpusTool {
  name: string;
  server: string;
  description: string;
  /** Names only (tool-corpus.json), or names with descriptions (heldout-tools.json). */
  parameters: (string | { name: string; description: string })[];
}

export type QueryStyle = 'paraphrase' | 'keywords' | 'no_server' | 'direct';
export interface EvalQuery { query: string; expected: string; style?: QueryStyle }
export interface EvalSet { name: string; tools: CorpusTool[]; queries: EvalQuery[] }

const DATA = join(import.meta.dirname, '..', 'data');
const read = <T>(file: string): T => JSON.parse(readFileSync(join(DATA, file), 'utf8')) as T;

export function loadCorpus(): CorpusTool[] {
  return read<{ tools: CorpusTool[] }>('tool-corpus.json').tools;
}

export function loadQueries(): EvalQuery[] {
  return read<{ queries: EvalQuery[] }>('tool-queries.json').queries;
}

export function loadSets(): { tuned: EvalSet; heldout: EvalSet } {
  return {
    tuned: { name: 'tuned', tools: loadCorpus(), queries: loadQueries() },
    heldout: { name: 'heldout', tools: read<{ tools: CorpusTool[] }>('heldout-tools.json').tools, queries: read<{ queries: EvalQuery[] }>('heldout-queries.json').queries },
  };
}

/** Half the corpus arrives as MCP tools, half as plugin tools: both kinds are deferred. */
export function toCapability(tool: CorpusTool, index: number, rename?: string): Capability {
  const asPlugin = index % 2 === 0;
  const parameters = tool.parameters.map((p) => (typeof p === 'string' ? { name: p, description: `The ${p.replace(/_/g, ' ')}.` } : p));
  const properties = Object.fromEntries(parameters.map((p) => [p.name, { type: 'string', description: p.description }]));
  return {
    name: rename ?? tool.name,
    description: tool.description,
    parameters: { type: 'object', properties, required: parameters.slice(0, 1).map((p) => p.name) },
    kind: asPlugin ? 'builtin' : 'mcp',
    hidden_from_agent: false,
    policy_class: 'external_api',
    metadata: asPlugin ? { category: 'plugin', plugin: tool.server, plugin_owned: true } : { category: 'mcp', mcp_server: tool.server },
    group: asPlugin ? 'plugin' : 'mcp',
    scope_requirements: [],
    audit_behavior: 'full',
    is_stateful: false,
    executor: async () => ({ text: `${tool.name} ran` }),
  };
}
