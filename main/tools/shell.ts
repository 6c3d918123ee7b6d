import { z } from 'zod';
import type { Executor } from '../core/capabilities/capability.js';
import { defineBuiltin } from './define-builtin.js';
import { lazySchema } from './lazy-schema.js';
import { pathContext, resolveAgainstBase, servicesOf, stringArg } from './tool-services.js';

/** Longest a single command may run; the capability's own deadline sits just above it. */
export const MAX_SHELL_TIMEOUT_MS = 600_000;
const DEFAULT_SHELL_TIMEOUT_MS = 30_000;

export const shellInput = lazySchema(() =>
  z.object({
    command: z.string().min(1).describe('The shell command to run, passed to `sh -c` with the sandbox-allowed environment.'),
    working_dir: z
      .string()
      .optional()
      .describe("Working directory for the command. Defaults to the sandbox mode's working directory."),
    timeout_ms: z
      .number()
      .int()
      .min(1)
      .default(30_000)
      .describe('Kill the command after this many milliseconds (default 30000).'),
  }),
);

/**
 * sandbox.runShell does the work and throws the Fermix tags itself (invalid_command,
 * invalid_working_dir, sandbox_denied, sandbox_hardline, timeout, exit_nonzero with the redacted
 * output, executable_not_found). Here: defaults, the cap, and the text the model reads.
 */
const executeShell: Executor = async (args, context) => {
  const command = stringArg(args, 'command', 'invalid_command', 'shell');
  const { sandbox } = servicesOf(context, 'sandbox');
  const requested = typeof args.timeout_ms === 'number' && args.timeout_ms > 0 ? Math.floor(args.timeout_ms) : DEFAULT_SHELL_TIMEOUT_MS;
  const timeoutMs = Math.min(requested, MAX_SHELL_TIMEOUT_MS);
  const paths = pathContext(context, sandbox);
  const workingDir = resolveAgainstBase(typeof args.working_dir === 'string' ? args.working_dir : undefined, paths.baseDir ?? sandbox.workspace);
  const result = await sandbox.runShell({ command, working_dir: workingDir, timeout_ms: timeoutMs, signal: context.signal, requestCwd: paths.requestCwd });
  const lines = [...result.notes];
  if (requested > MAX_SHELL_TIMEOUT_MS) lines.push(`Note: timeout_ms was capped at ${MAX_SHELL_TIMEOUT_MS}.`);
  lines.push(result.output === '' ? '(no output)' : result.output.replace(/\n$/, ''));
  if (result.truncated) lines.push('[Output truncated: the command printed more than the sandbox keeps; redirect it to a file and read parts with file_read.]');
  return {
    text: lines.join('\n'),
    data: { exit_code: result.exit_code, truncated: result.truncated, duration_ms: result.duration_ms, jailed: result.jailed, notes: result.notes },
  };
};

export const shell = defineBuiltin({
  name: 'shell',
  description:
    'Run a shell command via the sandbox command runner, with a sandbox-resolved working directory and environment. stderr is merged into the output.',
  policy_class: 'exec',
  category: 'system',
  input: shellInput,
  when_to_use:
    'Run a system command, build, test or script when no dedicated tool (file_read, git_read, content_search, …) does the job.',
  examples: [
    { args: { command: 'npm test -- --run', working_dir: 'projects/app' }, note: 'run a project test suite' },
    { args: { command: 'df -h', timeout_ms: 5000 }, note: 'check free disk space' },
  ],
  failure_modes: [
    { tag: 'invalid_command', description: 'command is absent, blank or not a string' },
    { tag: 'invalid_working_dir', description: 'working_dir does not exist or is not a directory' },
    { tag: 'sandbox_denied', description: 'the sandbox refused the working directory or the command plan' },
    { tag: 'sandbox_hardline', description: 'the command matches a hardline rule the sandbox never runs' },
    { tag: 'timeout', description: 'Command timed out after N ms' },
    { tag: 'exit_nonzero', description: 'Command failed (exit code N), followed by its output' },
    { tag: 'executable_not_found', description: 'the program named by the command is not installed' },
  ],
  scope_requirements: ['process:spawn'],
  // Commands carry tokens and passwords often enough that the audit keeps them only scrubbed
  // (Fermix traces keep the first 300 bytes with secrets redacted).
  audit_behavior: 'redact_args',
  // Each call is a fresh `env -i … sh -c`: no cwd, env or shell session carries over between calls.
  is_stateful: false,
  metadata: { runs_commands: true },
  executor: executeShell,
  // The invoke boundary's deadline must not undercut the command's own timeout_ms.
  timeout_ms: MAX_SHELL_TIMEOUT_MS + 10_000,
});
