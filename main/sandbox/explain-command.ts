/**
 * `fermix sandbox explain --command CMD` (and the daemon's `sandbox.explain_command`): how the sandbox
 * would treat a shell command, without running anything — the size cap, the hardline rule it hits
 * (if any), whether it would run inside the OS jail, the working directory it would get and the
 * names of the environment variables it would see. Helper commands are not run and the keychain is
 * not read: an allowed name is reported with where its value would come from.
 */
import { BASE_ENV_NAMES, ENV_LIMITS, isReservedEnvName, type SandboxConfig } from './sandbox-config.js';
import { DEFAULT_DENY } from './env.js';
import { explainHardline, MAX_COMMAND_BYTES } from './hardline.js';
import type { JailStatus } from './jail.js';
import type { CheckContext, PathPolicy } from './path-policy.js';

export type EnvSource = 'daemon' | 'helper' | 'keychain_or_unset';

export interface CommandExplanation {
  command_bytes: number;
  /** The hardline rule the command hits, or null. */
  hardline: string | null;
  hardline_description: string | null;
  hardline_excerpt: string | null;
  /** How the command was read: `tree` (the shell parser), `scan`, `scan_unquoted`. */
  readers: string[];
  /** What would stop it first, in the sandbox's order; null when it would run. */
  refused_by: 'invalid_command' | 'working_dir' | 'hardline' | 'jail_required' | null;
  would_run: boolean;
  jailed: boolean;
  jail: { active: boolean; required: boolean; reason: string };
  working_dir: { path: string; allowed: boolean; reason: string | null; real_path: string | null };
  env: { mode: string; names: string[]; allowed: Array<{ name: string; source: EnvSource }> };
}

export interface ExplainCommandOptions {
  command: string;
  config: SandboxConfig;
  policy: PathPolicy;
  workspace: string;
  home: string;
  fermixHome: string;
  jail: JailStatus;
  daemonEnv: Record<string, string | undefined>;
  /** Defaults to the workspace, like the shell tool. */
  workingDir?: string;
  checkContext?: CheckContext;
}

export function explainCommand(options: ExplainCommandOptions): CommandExplanation {
  const { command, config, policy, jail } = options;
  const bytes = Buffer.byteLength(command, 'utf8');
  const cwdInput = options.workingDir ?? options.workspace;
  const decision = policy.decide(cwdInput, 'write', options.checkContext ?? { baseDir: options.workspace });
  const cwd = decision.realPath ?? cwdInput;
  const report = explainHardline(command, {
    home: options.home,
    fermixHome: options.fermixHome,
    cwd,
    isProtected: (p) => policy.decide(p, 'write').reason === 'protected_path',
  });
  const hit = report.hit;
  const jailed = jail.active;
  const empty = command.trim() === '' || command.includes('\0');
  const refusedBy: CommandExplanation['refused_by'] =
    empty || bytes > MAX_COMMAND_BYTES ? 'invalid_command'
      : !decision.allowed ? 'working_dir'
        : hit !== undefined ? 'hardline'
          : !jailed && config.jail.required ? 'jail_required'
            : null;
  return {
    command_bytes: bytes,
    hardline: hit?.rule ?? null,
    hardline_description: hit?.description ?? null,
    hardline_excerpt: hit === undefined ? null : hit.excerpt.slice(0, 300),
    readers: report.readers,
    refused_by: refusedBy,
    would_run: refusedBy === null,
    jailed,
    jail: { active: jail.active, required: config.jail.required, reason: jail.reason },
    working_dir: { path: cwdInput, allowed: decision.allowed, reason: decision.reason ?? null, real_path: decision.realPath ?? null },
    env: childEnvNames(config, options.daemonEnv, jailed),
  };
}

/** The names buildChildEnv would put in the child's environment, computed without resolving any value. */
export function childEnvNames(config: SandboxConfig, daemonEnv: Record<string, string | undefined>, jailed: boolean): CommandExplanation['env'] {
  const env = config.env;
  const names = new Set<string>();
  const defined = (name: string) => typeof daemonEnv[name] === 'string';
  for (const name of BASE_ENV_NAMES) if (defined(name)) names.add(name);
  for (const name of Object.keys(daemonEnv)) if (name.startsWith('LC_') && defined(name)) names.add(name);
  names.add('PATH');
  if (jailed) names.add('TMPDIR');
  const denied = (name: string) => env.deny.includes(name) || DEFAULT_DENY.some((re) => re.test(name));
  if (env.mode === 'all') {
    for (const name of Object.keys(daemonEnv)) if (defined(name) && !denied(name) && !isReservedEnvName(name)) names.add(name);
  }
  const wanted = [...new Set(env.allow.filter((n) => !isReservedEnvName(n) && !env.deny.includes(n)))].slice(0, ENV_LIMITS.maxNames);
  const allowed = wanted.map((name): { name: string; source: EnvSource } => {
    const source: EnvSource = env.helpers[name] !== undefined ? 'helper' : defined(name) ? 'daemon' : 'keychain_or_unset';
    // A value known to be missing is not passed (the command gets a note instead).
    if (source !== 'keychain_or_unset') names.add(name);
    return { name, source };
  });
  return { mode: env.mode, names: [...names].sort(), allowed };
}
