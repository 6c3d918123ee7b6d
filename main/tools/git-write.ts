import { z } from 'zod';
import type { Executor } from '../core/capabilities/capability.js';
import { FermixError } from '../core/errors.js';
import { defineBuiltin } from './define-builtin.js';
import { lazySchema } from './lazy-schema.js';
import { checkGitArgs } from './git-guard.js';
import { runGit } from './git-run.js';

export const GIT_WRITE_COMMANDS = ['add', 'commit', 'checkout', 'pull'] as const;

export const gitWriteInput = lazySchema(() =>
  z.object({
    // `push` is accepted by the schema only so the model gets `push_deferred` (with the reason) instead of a schema error.
    command: z.enum([...GIT_WRITE_COMMANDS, 'push']).describe('Mutating git subcommand: add, commit, checkout or pull. push is refused (push_deferred).'),
    repo: z.string().optional().describe('Repository directory (default: the working directory).'),
    args: z.array(z.string()).optional().describe('Extra arguments, one per item, e.g. ["-m", "Fix typo"] for commit.'),
  }),
);

/** Options whose value is a commit message, not a path (so "/fix" or "see ../x" in a message is fine). */
const MESSAGE_OPTIONS = ['-m', '--message'];

const executeGitWrite: Executor = async (args, context) => {
  const command = args.command;
  if (command === 'push') {
    throw new FermixError({
      code: 'push_deferred',
      message: 'git_write does not push: publishing commits needs the owner, and the approval flow for it is not built yet.',
      hint: 'Tell the owner the commits are ready; they can run `git push` themselves.',
    });
  }
  if (typeof command !== 'string' || !(GIT_WRITE_COMMANDS as readonly string[]).includes(command)) {
    throw new FermixError({
      code: 'unknown_command',
      message: `git_write runs ${GIT_WRITE_COMMANDS.join(', ')}; not ${JSON.stringify(command)}.`,
      hint: 'Use git_read for status, log, diff, branch and show.',
      data: { command },
    });
  }
  const extra = Array.isArray(args.args) ? args.args.map(String) : [];
  checkGitArgs('git_write', extra, command === 'commit' ? MESSAGE_OPTIONS : []);
  return runGit({
    tool: 'git_write',
    access: 'write',
    globalFlags: [],
    command,
    // No hooks run (GIT_SAFE_PREFIX sets core.hooksPath=/dev/null): a hook is code the model could have written.
    fixed: [],
    args: extra,
    repo: typeof args.repo === 'string' ? args.repo : undefined,
    // pull talks to the network; the invoke boundary stops every call at 120 s.
    timeoutMs: command === 'pull' ? 110_000 : 30_000,
  }, context);
};

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
  // git runs hooks (commit, checkout): arbitrary code, so it counts as running commands.
  metadata: { runs_commands: true },
  executor: executeGitWrite,
});
