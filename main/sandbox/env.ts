/**
 * The child environment (reference §2.3 "Child environment"). It *replaces* the inherited one: a
 * minimal base plus the allowed names, each value read fresh per command from a helper command,
 * the keychain, or the daemon's own environment. A missing value never refuses the command: it
 * becomes a note at the top of the result and an `env_unresolved` entry for the trace.
 */
import { spawn } from 'node:child_process';
import { BASE_ENV_NAMES, ENV_LIMITS, isReservedEnvName, type SandboxEnvConfig } from './sandbox-config.js';
import { terminateGroup } from './process-group.js';

export { createRedactor, type Redactor } from './redactor.js';

/** Reference §6: all helpers of one command share 5 s. */
export const HELPER_BUDGET_MS = 5_000;

/**
 * Secret-shaped names kept out of `mode = "all"` unless explicitly allowed, plus the variables that
 * would let a value inject code into every child (LD_PRELOAD, NODE_OPTIONS, BASH_ENV, …).
 */
export const DEFAULT_DENY: readonly RegExp[] = [
  /_KEY$/i, /_KEYS$/i, /_TOKEN$/i, /_TOKENS$/i, /_SECRET$/i, /SECRET/i, /PASSWORD/i, /PASSWD/i, /_PASS$/i,
  /CREDENTIAL/i, /^AWS_/i, /^AZURE_/i, /^GOOGLE_APPLICATION_CREDENTIALS$/i, /_API_KEY/i, /_DSN$/i,
  /^DATABASE_URL$/i, /COOKIE/i, /_SESSION$/i, /^SSH_AUTH_SOCK$/, /^GPG_AGENT_INFO$/, /^FERMIX_/,
  /^LD_/, /^DYLD_/, /^NODE_OPTIONS$/, /^BASH_ENV$/, /^ENV$/, /^PROMPT_COMMAND$/, /^PYTHONSTARTUP$/, /^PERL5OPT$/,
];

export type UnresolvedReason = 'missing' | 'not_allowed' | 'helper_failed' | 'helper_timeout' | 'multi_line' | 'too_long' | 'too_many_names';

export interface BuildEnvOptions {
  config: Pick<SandboxEnvConfig, 'mode' | 'allow' | 'deny'> & { helpers?: Record<string, string[]> };
  /** The daemon's environment (process.env in production). */
  daemonEnv: Record<string, string | undefined>;
  /** Reads the managed keychain item `fermix:external_env:NAME`; undefined when there is none. */
  keychain?: (name: string) => Promise<string | undefined>;
  /** A command capability's `pass_env`: only names also on the allow list are passed. */
  passEnv?: string[];
  /** Values the sandbox sets for this run (e.g. TMPDIR=/tmp inside the jail). */
  overrides?: Record<string, string>;
  helperBudgetMs?: number;
}

export interface ChildEnv {
  env: Record<string, string>;
  /** Every resolved allowed value, for the redactor. */
  secrets: Record<string, string>;
  unresolved: Array<{ name: string; reason: UnresolvedReason }>;
  /** Lines to put at the top of the tool result. */
  notes: string[];
}

export async function buildChildEnv(options: BuildEnvOptions): Promise<ChildEnv> {
  const { config, daemonEnv } = options;
  const env: Record<string, string> = {};
  const defined = (name: string) => typeof daemonEnv[name] === 'string';
  for (const name of BASE_ENV_NAMES) if (defined(name)) env[name] = daemonEnv[name] as string;
  for (const name of Object.keys(daemonEnv)) if (name.startsWith('LC_') && defined(name)) env[name] = daemonEnv[name] as string;
  if (env.PATH === undefined) env.PATH = '/usr/local/bin:/usr/bin:/bin';

  const denied = (name: string) => config.deny.includes(name) || DEFAULT_DENY.some((re) => re.test(name));
  if (config.mode === 'all') {
    for (const [name, value] of Object.entries(daemonEnv)) {
      if (value !== undefined && !denied(name) && !isReservedEnvName(name)) env[name] = value;
    }
  }

  const unresolved: ChildEnv['unresolved'] = [];
  const wanted = [...new Set(config.allow.filter((n) => !isReservedEnvName(n) && !config.deny.includes(n)))];
  for (const name of wanted.slice(ENV_LIMITS.maxNames)) unresolved.push({ name, reason: 'too_many_names' });
  const names = wanted.slice(0, ENV_LIMITS.maxNames);
  const deadline = Date.now() + (options.helperBudgetMs ?? HELPER_BUDGET_MS);
  const values = await Promise.all(names.map((name) => resolveValue(name, options, env, deadline)));

  const secrets: Record<string, string> = {};
  names.forEach((name, i) => {
    const result = values[i];
    if (typeof result !== 'string') {
      unresolved.push({ name, reason: result.reason });
      return;
    }
    const reason = invalidValue(result);
    if (reason !== undefined) {
      unresolved.push({ name, reason });
      return;
    }
    env[name] = result;
    secrets[name] = result;
  });
  // pass_env narrows nothing by itself: a name must be on the allow list to be resolved at all.
  for (const name of options.passEnv ?? []) {
    if (!names.includes(name)) unresolved.push({ name, reason: 'not_allowed' });
  }
  Object.assign(env, options.overrides ?? {});
  return { env, secrets, unresolved, notes: unresolved.map(noteFor) };
}

function invalidValue(value: string): UnresolvedReason | undefined {
  if (/[\r\n]/.test(value)) return 'multi_line';
  if (Buffer.byteLength(value, 'utf8') > ENV_LIMITS.maxValueBytes) return 'too_long';
  return undefined;
}

async function resolveValue(
  name: string,
  options: BuildEnvOptions,
  baseEnv: Record<string, string>,
  deadline: number,
): Promise<string | { reason: UnresolvedReason }> {
  const helper = options.config.helpers?.[name];
  if (helper !== undefined) return runHelper(helper, baseEnv, deadline);
  const fromKeychain = options.keychain ? await options.keychain(name).catch(() => undefined) : undefined;
  if (fromKeychain !== undefined) return fromKeychain;
  const fromDaemon = options.daemonEnv[name];
  return fromDaemon === undefined ? { reason: 'missing' } : fromDaemon;
}

/**
 * Runs an operator helper (argv, no shell) with only the base environment and reads the first line
 * of its stdout. The helper is killed with its whole group when the shared budget runs out.
 */
function runHelper(argv: string[], env: Record<string, string>, deadline: number): Promise<string | { reason: UnresolvedReason }> {
  const remaining = deadline - Date.now();
  if (remaining <= 0) return Promise.resolve({ reason: 'helper_timeout' });
  return new Promise((resolve) => {
    const child = spawn(argv[0], argv.slice(1), { env, detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
    const chunks: Buffer[] = [];
    let size = 0;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      if (child.pid !== undefined) terminateGroup(child.pid, 500);
    }, remaining);
    // An unhandled pipe 'error' would end the daemon; the exit handler still resolves.
    child.stdout.on('error', () => {});
    child.stdout.on('data', (chunk: Buffer) => {
      // One line of at most 8 KiB is all we keep; more is a helper printing something else.
      if (size <= ENV_LIMITS.maxValueBytes + 2) chunks.push(chunk);
      size += chunk.length;
    });
    child.on('error', () => {
      clearTimeout(timer);
      resolve({ reason: 'helper_failed' });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (timedOut) return resolve({ reason: 'helper_timeout' });
      if (code !== 0) return resolve({ reason: 'helper_failed' });
      const text = Buffer.concat(chunks).toString('utf8');
      resolve(text.split(/\r?\n/)[0] ?? '');
    });
  });
}

function noteFor({ name, reason }: { name: string; reason: UnresolvedReason }): string {
  const why: Record<UnresolvedReason, string> = {
    missing: 'is not set in the keychain or the daemon environment',
    not_allowed: 'is not on the [sandbox.env] allow list',
    helper_failed: 'could not be read: its helper command failed',
    helper_timeout: `could not be read: helpers ran past the ${HELPER_BUDGET_MS / 1000} s budget`,
    multi_line: 'was not passed: values must be one line',
    too_long: `was not passed: values are at most ${ENV_LIMITS.maxValueBytes} bytes`,
    too_many_names: `was not passed: at most ${ENV_LIMITS.maxNames} names can be allowed`,
  };
  const fix = reason === 'not_allowed' || reason === 'too_many_names' ? `fermix sandbox env allow ${name}` : `fermix sandbox env set ${name} -- <helper>`;
  return `Note: env ${name} ${why[reason]} (env_unresolved). Fix: \`${fix}\`.`;
}
