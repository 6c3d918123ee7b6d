import { promises as fs } from 'node:fs';
import { z } from 'zod';
import type { ExecutionContext, Executor } from '../core/capabilities/capability.js';
import { FermixError, isFermixError } from '../core/errors.js';
import type { Sandbox } from '../sandbox/index.js';
import { defineBuiltin } from './define-builtin.js';
import { lazySchema } from './lazy-schema.js';
import { skipGitUnlessNamed, walkFiles, type WalkStats } from './fs-walk.js';
import { compileGlob } from './glob-pattern.js';
import { pathContext, servicesOf, stringArg } from './tool-services.js';

/** A glob has no timeout_ms of its own; this keeps it well inside the invoke boundary's 120 s. */
const GLOB_BUDGET_MS = 60_000;

export const globSearchInput = lazySchema(() =>
  z.object({
    pattern: z.string().min(1).describe('Glob pattern relative to path, such as **/*.ts or docs/*.md.'),
    path: z.string().optional().describe('Root directory to search (default: the working directory).'),
    max_results: z.number().int().min(1).max(1000).default(200).describe('Maximum paths to return (default 200, 1-1000).'),
  }),
);

export const globSearchOutput = lazySchema(() => z.array(z.string().describe('Absolute path of a matching file.')));

/** A root the sandbox refuses is `invalid_path` for glob_search (reference §4), with the sandbox's reason kept. */
function checkedRoot(sandbox: Sandbox, input: string, context: ExecutionContext): string {
  try {
    return sandbox.policy.checkRead(input, pathContext(context, sandbox));
  } catch (error) {
    if (!isFermixError(error)) throw error;
    throw new FermixError({ code: 'invalid_path', message: error.message, hint: error.hint, data: { ...error.data, sandbox_code: error.code } });
  }
}

const executeGlobSearch: Executor = async (args, context) => {
  const pattern = stringArg(args, 'pattern', 'missing_pattern', 'glob_search').trim();
  const max = typeof args.max_results === 'number' ? Math.min(1000, Math.max(1, Math.floor(args.max_results))) : 200;
  const { sandbox } = servicesOf(context, 'sandbox');
  if (pattern.split('/').includes('..')) {
    throw new FermixError({ code: 'invalid_path', message: 'The pattern may not climb out of its root with `..`.', hint: 'Pass the folder to search as `path` and a pattern below it.', data: { pattern } });
  }
  // An absolute (or ~/) pattern brings its own root; otherwise it is relative to `path` (default: working dir).
  const checkContext = pathContext(context, sandbox);
  let base = typeof args.path === 'string' && args.path !== '' ? args.path : (checkContext.baseDir ?? sandbox.workspace);
  let source = pattern;
  if (pattern.startsWith('/')) [base, source] = ['/', pattern.replace(/^\/+/, '')];
  else if (pattern.startsWith('~/')) [base, source] = ['~', pattern.slice(2)];
  const glob = compileGlob(source);
  const rootInput = glob.staticPrefix === '' ? base : `${base.replace(/\/+$/, '')}/${glob.staticPrefix}`;
  const root = checkedRoot(sandbox, rootInput, context);
  const rootStat = await fs.stat(root).catch(() => undefined);
  if (!rootStat?.isDirectory()) {
    throw new FermixError({ code: 'invalid_path', message: `Not a folder: ${root}.`, hint: 'Pass an existing folder as `path` (default: the working directory).', data: { path: root } });
  }
  const stats: WalkStats = { visited: 0 };
  const matches: string[] = [];
  let truncated = false;
  const walk = walkFiles(root, { policy: sandbox.policy, context: checkContext, signal: context.signal, deadline: Date.now() + GLOB_BUDGET_MS, skipDir: skipGitUnlessNamed(pattern) }, stats);
  for await (const entry of walk) {
    if (!glob.regex.test(entry.rel)) continue;
    // Every match is sandbox-filtered on its real path (a protected file, a link leading out).
    const decision = sandbox.policy.decide(entry.path, 'read', checkContext);
    if (!decision.allowed) continue;
    if (entry.symlink && !(await fs.stat(decision.realPath as string).catch(() => undefined))?.isFile()) continue;
    if (matches.length >= max) {
      truncated = true;
      break;
    }
    matches.push(entry.path);
  }
  const notes: string[] = [];
  if (truncated) notes.push(`[Showing the first ${max} matches; pass a narrower pattern or a larger max_results (up to 1000).]`);
  if (stats.stopped) notes.push(`[The search stopped early (${stats.stopped}) after ${stats.visited} entries; results are partial. Narrow the path.]`);
  const text = matches.length === 0 ? `No files matched ${pattern} under ${root}.` : matches.join('\n');
  return { text: [text, ...notes].join('\n'), data: matches };
};

export const globSearch = defineBuiltin({
  name: 'glob_search',
  description: 'Pattern-glob the workspace for files. Dotfiles are included and every match is sandbox-filtered.',
  policy_class: 'read_only',
  category: 'file',
  input: globSearchInput,
  output: globSearchOutput,
  when_to_use: 'Find files by name or extension when you do not know their exact paths.',
  examples: [
    { args: { pattern: '**/*.test.ts', path: 'src' }, note: 'find test files' },
    { args: { pattern: '*.pdf', path: 'Documents', max_results: 20 }, note: 'list a few PDFs' },
  ],
  failure_modes: [
    { tag: 'missing_pattern', description: 'pattern is absent or blank' },
    { tag: 'invalid_path', description: 'path is invalid or outside the sandbox roots' },
    { tag: 'not_found', description: 'no file matched; returns an empty list' },
  ],
  scope_requirements: ['fs:read'],
  executor: executeGlobSearch,
});
