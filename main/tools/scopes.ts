/**
 * Coarse permission buckets for `scope_requirements` (Voss capability metadata).
 * A capability lists every bucket it needs; a role or permission rule grants buckets.
 *
 * Choices, so the buckets stay coarse and predictable:
 * - A bucket names what the tool itself touches, not what a spawned program might do:
 *   `shell` needs `process:spawn` only, because the sandbox (not a scope) bounds the files and
 *   network a command reaches.
 * - Fermix's own stores (memory, jobs, skills, config) get their own buckets instead of `fs:*`,
 *   because they live under $FERMIX_HOME, outside the sandbox roots that `fs:*` stands for.
 * - Discovery tools (tool_help, tool_search, tool_describe) read only capability metadata and need
 *   no bucket; tool_call needs none either, because the loop unwraps it and checks the real tool.
 */
export const SCOPES = {
  'fs:read': 'Read files and directories inside the sandbox roots.',
  'fs:write': 'Create or change files inside the sandbox roots (or its media/ floor).',
  'process:spawn': 'Start an OS process: a shell command, git, a browser.',
  'net:outbound': 'Open outbound network connections (through Net.Guard or a provider API).',
  'desktop:control': "Look at and drive the host's screen, mouse and keyboard.",
  'memory:read': "Read the owner's stored memories, memory sources and conversation history.",
  'memory:write': "Write to the owner's memory store.",
  'jobs:read': 'Read scheduled jobs and their run history.',
  'jobs:write': 'Create, change, trigger, pause or delete scheduled jobs.',
  'skills:read': 'Read installed skills and their instructions.',
  'skills:write': 'Create skills on disk or reload the live skill registry.',
  'config:read': 'Read config.toml settings.',
  'config:write': 'Change config.toml settings.',
  'agent:delegate': 'Start another model run (subagent workers, a skill run, a job run).',
  'channel:send': 'Send something other than the reply text to the active chat channel.',
} as const;

export type Scope = keyof typeof SCOPES;

export const SCOPE_NAMES = Object.keys(SCOPES) as Scope[];

export function isScope(value: string): value is Scope {
  return Object.hasOwn(SCOPES, value);
}
