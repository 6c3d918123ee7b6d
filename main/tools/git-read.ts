import { z } from 'zod';
import type { Executor } from '../core/capabilities/capability.js';
import { FermixError } from '../core/errors.js';
import { defineBuiltin } from './define-builtin.js';
import { lazySchema } from './lazy-schema.js';
import { checkBranchListing, checkGitArgs } from './git-guard.js';
import { runGit } from './git-run.js';

export const GIT_READ_COMMANDS = ['status', 'log', 'diff', 'branch', 'show'] as const;

export const gitReadInput = lazySchema(() =>
  z.object({
    command: z.enum(GIT_READ_COMMANDS).describe('Read-only git subcommand: status, log, diff, branch or show.'),
    repo: z.string().optional().describe('Repository directory (default: the working directory).'),
    args: z
      .array(z.string())
      .optional()
      .describe('Extra arguments, one per item (no absolute paths, no "..", no --git-dir/--work-tree/--output style options).'),
  }),
);

/** Fixed flags per subcommand: no external diff programs. */
const FIXED: Record<(typeof GIT_READ_COMMANDS)[number], string[]> = {
  status: [],
  log: ['--no-ext-diff'],
  diff: ['--no-ext-diff'],
  branch: [],
  show: ['--no-ext-diff'],
};

const executeGitRead: Executor = async (args, context) => {
  const command = args.command;
  if (typeof command !== 'string' || !(GIT_READ_COMMANDS as readonly string[]).includes(command)) {
    throw new FermixError({
      code: 'unknown_command',
      message: `git_read runs ${GIT_READ_COMMANDS.join(', ')}; not ${JSON.stringify(command)}.`,
      hint: 'Use git_write for add, commit, checkout and pull; the shell tool for anything else.',
      data: { command },
    });
  }
  const extra = Array.isArray(args.args) ? args.args.map(String) : [];
  checkGitArgs('git_read', extra);
  if (command === 'branch') checkBranchListing(extra);
  const name = command as (typeof GIT_READ_COMMANDS)[number];
  return runGit({
    tool: 'git_read',
    access: 'read',
    // status would otherwise refresh (write) the index of a repository we only read.
    globalFlags: ['--no-optional-locks'],
    command: name,
    fixed: FIXED[name],
    args: extra,
    repo: typeof args.repo === 'string' ? args.repo : undefined,
    timeoutMs: 30_000,
  }, context);
};

export const gitRead = defineBuiltin({
  name: 'git_read',
  description: 'Run read-only git queries: status, log, diff, branch, show.',
  policy_class: 'read_only',
  category: 'git',
  input: gitReadInput,
  when_to_use: 'Inspect a repository: what changed, recent history, branches, or one commit.',
  examples: [
    { args: { command: 'status', args: ['--short'] }, note: 'short status of the current repo' },
    { args: { command: 'log', repo: 'projects/site', args: ['--oneline', '-n', '10'] }, note: 'last ten commits' },
  ],
  failure_modes: [
    { tag: 'unknown_command', description: 'command is not one of status, log, diff, branch, show' },
    { tag: 'git_failed', description: 'git exited non-zero (or an argument was refused)' },
    { tag: 'invalid_repo', description: 'repo is missing, not a directory, or outside the sandbox roots' },
  ],
  scope_requirements: ['fs:read', 'process:spawn'],
  executor: executeGitRead,
});
