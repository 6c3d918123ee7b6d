import { z } from 'zod';
import { defineBuiltin } from './define-builtin.js';

export const GIT_READ_COMMANDS = ['status', 'log', 'diff', 'branch', 'show'] as const;

export const gitReadInput = z.object({
  command: z.enum(GIT_READ_COMMANDS).describe('Read-only git subcommand: status, log, diff, branch or show.'),
  repo: z.string().optional().describe('Repository directory (default: the working directory).'),
  args: z
    .array(z.string())
    .optional()
    .describe('Extra arguments, one per item (no absolute paths, no "..", no --git-dir/--work-tree/--output style options).'),
});

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
});
