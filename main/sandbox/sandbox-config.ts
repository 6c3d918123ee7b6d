/**
 * The `[sandbox]` section of config.toml (reference §2.3). Key names and defaults are Fermix's, so a
 * Fermix user's config reads the same here; `[sandbox.jail]` is ours (Fermix has no OS jail).
 * Every table is strict: an unknown key is a typo that would silently widen or narrow the sandbox.
 */
import { z } from 'zod';
import { jailLimitsSchema } from './jail-limits.js';

/** Env limits from reference §6 ("Env passthrough"). */
export const ENV_LIMITS = { maxNames: 64, maxNameLength: 128, maxValueBytes: 8192 } as const;

/** Shell identifiers only: the names end up in a child environment, never in argv. */
const envName = z
  .string()
  .max(ENV_LIMITS.maxNameLength, `Env names are at most ${ENV_LIMITS.maxNameLength} characters.`)
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'Env names must be shell identifiers (letters, digits, _; not starting with a digit).');

/** Names the sandbox sets itself (reference §2.3 minimal environment); they cannot be on `allow`. */
export const BASE_ENV_NAMES = ['PATH', 'HOME', 'USER', 'LANG', 'SHELL', 'TERM', 'TMPDIR'] as const;

export function isReservedEnvName(name: string): boolean {
  return (BASE_ENV_NAMES as readonly string[]).includes(name) || name.startsWith('LC_') || name.startsWith('FERMIX_');
}

const pathEntry = z.string().min(1, 'Paths must not be empty.').refine((p) => !p.includes('\0'), 'Paths must not contain NUL bytes.');

export const sandboxEnvSchema = z.strictObject({
  /** `allowlist`: minimal base + `allow`; `all`: the daemon's whole environment minus `deny` and the secret-shaped defaults. */
  mode: z.enum(['allowlist', 'all']).default('allowlist'),
  allow: z
    .array(envName.refine((n) => !isReservedEnvName(n), { error: (issue) => `${String(issue.input)} is set by the sandbox itself and cannot be on the allow list.` }))
    .max(ENV_LIMITS.maxNames, `At most ${ENV_LIMITS.maxNames} env names can be allowed.`)
    .default([]),
  deny: z.array(envName).default([]),
  /** `fermix sandbox env set NAME -- <helper>`: argv of a helper whose first stdout line is the value. */
  helpers: z.record(envName, z.array(z.string().min(1)).min(1)).default({}),
});

/** `[sandbox.commands.<name>]`: a single command capability (available under every profile). */
export const sandboxCommandSchema = z.strictObject({
  command: z.string().min(1),
  args: z.array(z.string()).default([]),
  pass_env: z.array(envName).default([]),
  timeout_ms: z.number().int().positive().default(30_000),
  description: z.string().optional(),
  enabled: z.boolean().default(true),
});

export const commandProfileSchema = z.enum(['bare', 'assistant', 'extended']);

/** `[sandbox.commands]`: `profile` plus one sub-table per named command. */
export const sandboxCommandsSchema = z
  .object({ profile: commandProfileSchema.default('bare') })
  .catchall(sandboxCommandSchema);

export const sandboxJailSchema = z.strictObject({
  /** Run shell commands inside bubblewrap when it works on this machine. */
  enabled: z.boolean().default(true),
  /** Refuse to run shell commands when the jail is unavailable, instead of falling back to the path gate only. */
  required: z.boolean().default(false),
  /** Process count, memory, open files, CPU and file size for every jailed command (jail-limits.ts). */
  limits: jailLimitsSchema.prefault({}),
});

export const sandboxConfigSchema = z.strictObject({
  mode: z.enum(['strict', 'standard', 'open']).default('standard'),
  /** Defaults to `$FERMIX_HOME/workspace` (resolved by the caller, who knows FERMIX_HOME). */
  workspace_root: pathEntry.optional(),
  allowed_roots: z.array(pathEntry).default([]),
  blocked_roots: z.array(pathEntry).default([]),
  env: sandboxEnvSchema.prefault({}),
  commands: sandboxCommandsSchema.prefault({}),
  jail: sandboxJailSchema.prefault({}),
});

export type SandboxConfig = z.infer<typeof sandboxConfigSchema>;
export type SandboxConfigInput = z.input<typeof sandboxConfigSchema>;
export type SandboxEnvConfig = z.infer<typeof sandboxEnvSchema>;
export type SandboxCommandConfig = z.infer<typeof sandboxCommandSchema>;
export type SandboxJailConfig = z.infer<typeof sandboxJailSchema>;
export type SandboxMode = SandboxConfig['mode'];
export type CommandProfile = z.infer<typeof commandProfileSchema>;
