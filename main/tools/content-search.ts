import { promises as fs } from 'node:fs';
import { z } from 'zod';
import type { Executor } from '../core/capabilities/capability.js';
import { FermixError, isFermixError } from '../core/errors.js';
import { createLineMatcher, MatchTimeout } from './content-matcher.js';
import { defineBuiltin } from './define-builtin.js';
import { lazySchema } from './lazy-schema.js';
import { looksBinary, openForRead, type PathGate } from './fs-atomic.js';
import { skipGitUnlessNamed, walkFiles, type WalkEntry, type WalkStats } from './fs-walk.js';
import { pathContext, servicesOf, stringArg } from './tool-services.js';

/** Files larger than this are skipped (logs and dumps; search them with shell + grep). */
export const MAX_SEARCH_FILE_BYTES = 8 * 1024 * 1024;

export const contentSearchInput = lazySchema(() =>
  z.object({
    pattern: z.string().min(1).describe('Text to search for, or a regular expression when regex is true.'),
    path: z.string().optional().describe('Root directory or single file to search (default: the working directory).'),
    regex: z.boolean().default(false).describe('Interpret pattern as a regular expression (default false: literal text).'),
    max_results: z.number().int().min(1).max(1000).default(200).describe('Maximum matching lines to return (default 200, 1-1000).'),
    timeout_ms: z.number().int().min(1).max(120_000).default(30_000).describe('Give up after this many milliseconds (default 30000, max 120000).'),
  }),
);

export const contentSearchOutput = lazySchema(() =>
  z.object({
    matches: z.array(
      z.object({
        path: z.string().describe('Absolute path of the file.'),
        line: z.number().int().min(1).describe('1-based line number.'),
        text: z.string().describe('The matching line, trailing whitespace trimmed.'),
      }),
    ),
    truncated: z.boolean().describe('True when max_results cut the list short.'),
  }),
);

type Match = { path: string; line: number; text: string };

function compilePattern(pattern: string, regex: boolean): string {
  const source = regex ? pattern : pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  try {
    new RegExp(source);
  } catch (error) {
    throw new FermixError({
      code: 'invalid_regex',
      message: `The regex does not compile: ${(error as Error).message}.`,
      hint: 'Fix the pattern (JavaScript regex syntax), or pass regex: false to search for the literal text.',
      data: { pattern },
    });
  }
  return source;
}

const executeContentSearch: Executor = async (args, context) => {
  const pattern = stringArg(args, 'pattern', 'invalid_regex', 'content_search');
  const source = compilePattern(pattern, args.regex === true);
  const max = typeof args.max_results === 'number' ? Math.min(1000, Math.max(1, Math.floor(args.max_results))) : 200;
  const timeoutMs = typeof args.timeout_ms === 'number' ? Math.min(120_000, Math.max(1, Math.floor(args.timeout_ms))) : 30_000;
  const deadline = Date.now() + timeoutMs;
  const { sandbox } = servicesOf(context, 'sandbox');
  const checkContext = pathContext(context, sandbox);
  const root = sandbox.policy.checkRead(typeof args.path === 'string' && args.path !== '' ? args.path : (checkContext.baseDir ?? sandbox.workspace), checkContext);
  const rootStat = await fs.stat(root).catch(() => undefined);
  if (rootStat === undefined) {
    throw new FermixError({ code: 'not_found', message: `Nothing to search at ${root}.`, hint: 'Pass an existing folder or file as `path`.', data: { path: root } });
  }
  const stats: WalkStats = { visited: 0 };
  const files: AsyncIterable<WalkEntry> = rootStat.isDirectory()
    ? walkFiles(root, { policy: sandbox.policy, context: checkContext, signal: context.signal, deadline, skipDir: skipGitUnlessNamed(pattern) }, stats)
    : single(root);
  const matcher = createLineMatcher(source);
  const matches: Match[] = [];
  const skipped = { binary: 0, large: 0 };
  let truncated = false;
  try {
    for await (const entry of files) {
      if (Date.now() > deadline) throw new MatchTimeout('deadline');
      const decision = sandbox.policy.decide(entry.path, 'read', checkContext);
      if (!decision.allowed) continue;
      const bytes = await readCandidate(decision.realPath as string, { policy: sandbox.policy, context: checkContext }, skipped);
      if (bytes === undefined) continue;
      const found = await matcher.match(bytes, max - matches.length + 1, deadline);
      for (const [line, text] of found) {
        if (matches.length >= max) {
          truncated = true;
          break;
        }
        matches.push({ path: entry.path, line, text });
      }
      if (truncated) break;
    }
  } catch (error) {
    if (error instanceof MatchTimeout) {
      throw new FermixError({
        code: 'timeout',
        message: `content_search timed out after ${timeoutMs}ms (${matches.length} matches so far).`,
        hint: 'Search a narrower path, simplify the regex (avoid nested quantifiers), or pass a larger timeout_ms (max 120000).',
        data: { matches, truncated: true },
      });
    }
    throw isFermixError(error) ? error : new FermixError({ code: 'tool_failed', message: `content_search failed: ${(error as Error).message}.`, hint: 'Try a narrower path.', cause: error });
  } finally {
    await matcher.close();
  }
  const notes: string[] = [];
  if (truncated) notes.push(`[Showing the first ${max} matches; narrow the pattern or path, or raise max_results (up to 1000).]`);
  if (stats.stopped) notes.push(`[The walk stopped early (${stats.stopped}); results are partial.]`);
  if (skipped.large > 0) notes.push(`[Skipped ${skipped.large} file(s) over ${MAX_SEARCH_FILE_BYTES} bytes.]`);
  const body = matches.length === 0 ? `No matches for ${JSON.stringify(pattern)} under ${root}.` : matches.map((m) => `${m.path}:${m.line}: ${m.text}`).join('\n');
  return { text: [body, ...notes].join('\n'), data: { matches, truncated } };
};

async function* single(file: string): AsyncGenerator<WalkEntry> {
  yield { path: file, rel: '', symlink: false };
}

/**
 * The file's bytes, or undefined for binary (NUL in the first 4 KiB), oversized, unreadable or
 * non-regular files: a FIFO or socket (reached through a symlink) is skipped without blocking.
 */
async function readCandidate(real: string, gate: PathGate, skipped: { binary: number; large: number }): Promise<Buffer | undefined> {
  let opened;
  try {
    opened = await openForRead(real, gate);
  } catch {
    return undefined;
  }
  const { handle, stat } = opened;
  try {
    if (stat.size > MAX_SEARCH_FILE_BYTES) {
      skipped.large += 1;
      return undefined;
    }
    const bytes = await handle.readFile();
    if (looksBinary(bytes)) {
      skipped.binary += 1;
      return undefined;
    }
    return bytes;
  } catch {
    return undefined;
  } finally {
    await handle.close();
  }
}

export const contentSearch = defineBuiltin({
  name: 'content_search',
  description: 'Regex-search file contents across the workspace without shelling out to grep. Binary files are skipped.',
  policy_class: 'read_only',
  category: 'file',
  input: contentSearchInput,
  output: contentSearchOutput,
  when_to_use: 'Find where a word, identifier or pattern appears inside files.',
  examples: [
    { args: { pattern: 'TODO', path: 'src' }, note: 'find TODO comments' },
    { args: { pattern: 'export (async )?function \\w+Job', regex: true }, note: 'regex search' },
  ],
  failure_modes: [
    { tag: 'invalid_regex', description: 'the regex pattern did not compile' },
    { tag: 'timeout', description: 'the search exceeded timeout_ms' },
    { tag: 'not_found', description: 'no matches; returns an empty match list' },
  ],
  scope_requirements: ['fs:read'],
  executor: executeContentSearch,
});
