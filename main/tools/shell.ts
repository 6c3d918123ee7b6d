import { z } from 'zod';
import { defineBuiltin } from './define-builtin.js';

export const shellInput = z.object({
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
});

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
});
