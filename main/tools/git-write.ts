import { z } from 'zod';
import { defineBuiltin } from './define-builtin.js';

export const GIT_WRITE_COMMANDS = ['add', 'commit', 'checkout', 'pull'] as const;

export const gitWriteInput = z.object({
  command: z.enum(GIT_WRITE_COMMANDS).describe('Mutating git subcommand: add, commit, checkout or pull. push is not available.'),
  repo: z.string().optional().describe('Repository directory (default: the working directory).'),
  args: z.array(z.string()).optional().describe('Extra arguments, one per item, e.g. ["-m", "Fix typo"] for commit.'),
});

export const gitWrite = defineBuiltin({
  name: 'git_write',
  description: 'Run mutating git commands: add, commit, checkout, pull. Pushing is deliberately excluded.',
  policy_class: 'read_write',
  category: 'git',
  input: gitWriteInput,
  when_to_use: 'Stage, commit, switch branches or pull in a local repository; never to push.',
  examples: [
    { args: { command: 'add', args: ['README.md'] }, note: 'stage a file' },
    { args: { command: 'commit', args: ['-m', 'Update install notes'] }, note: 'commit staged changes' },
  ],
  failure_modes: [
    { tag: 'unknown_command', description: 'command is not one of add, commit, checkout, pull' },
    { tag: 'push_deferred', description: 'push is refused; it needs the approval flow' },
    { tag: 'git_failed', description: 'git exited non-zero' },
    { tag: 'sandbox_denied', description: 'the repository root is outside the sandbox roots; run `fermix grant path <repo>`' },
  ],
  // `pull` also reaches the network; the scope stays per tool (as the policy class does), so it is not
  // listed: a role without net:outbound can still add and commit.
  scope_requirements: ['fs:read', 'fs:write', 'process:spawn'],
});
