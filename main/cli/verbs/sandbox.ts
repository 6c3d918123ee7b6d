/**
 * `fermix sandbox status|explain PATH|explain --command CMD|mode MODE|commands …|env …|grant command …` and
 * `fermix grant path P` / `fermix revoke path P` (reference §2.18). They work without a daemon:
 * each reads or edits config.toml (validated, atomic), and a running daemon picks an edit up after
 * `fermix restart` (the daemon builds its sandbox at start). `status` also says whether the OS
 * jail is active and, if not, why and how to enable it.
 *
 * `argv` is the positional words from `fermix` on, verb included (a `--` separator may be present).
 */
import { homedir } from 'node:os';
import path from 'node:path';
import { loadConfig, updateConfig } from '../../config/config-file.js';
import type { HomePaths } from '../../config/home.js';
import { FermixError } from '../../core/errors.js';
import { UNJAILED_WARNING } from '../../core/capabilities/unjailed.js';
import { isProcessAlive, readPid } from '../../daemon/pid-lock.js';
import { describeCommands } from '../../sandbox/command-capabilities.js';
import { persistGrant } from '../../sandbox/directory-access.js';
import { createPathPolicy, jailStatus, type PathPolicy, type SandboxConfig } from '../../sandbox/index.js';
import { expandHome, realRoot } from '../../sandbox/real-path.js';
import { EXIT, UsageError, type CliIo } from '../output.js';
import { callDaemon } from '../control-client.js';
import { editCommands, editEnv, grantCommand } from './sandbox-edits.js';
import { explainCommandVerb } from './sandbox-explain.js';

const MODES = ['strict', 'standard', 'open'];

export async function sandboxVerb(io: CliIo, paths: HomePaths, argv: string[], json: boolean): Promise<number> {
  let change: string | undefined;
  const code = await runSandboxVerb(io, paths, argv, json, (message) => {
    change = message;
    return EXIT.ok;
  });
  if (change === undefined) return code;
  const applies = await applyToRunningDaemon(paths);
  io.out(json ? JSON.stringify({ schema_version: 1, ok: true, result: { changed: true, message: change, applies } }) : `${change}\n${applies}`);
  return code;
}

/** A running daemon re-reads [sandbox] at once (new roots, env and command capabilities, swapped atomically). */
async function applyToRunningDaemon(paths: HomePaths): Promise<string> {
  const pid = readPid(paths.pidFile);
  if (pid === undefined || !isProcessAlive(pid)) return 'Saved to config.toml. It applies when the daemon starts.';
  try {
    await callDaemon(paths.socket, 'sandbox.reload', {}, 10_000);
    return 'Saved to config.toml and applied to the running daemon.';
  } catch (error) {
    return `Saved to config.toml, but the running daemon could not apply it (${(error as Error).message}); run \`fermix restart\`.`;
  }
}

function runSandboxVerb(io: CliIo, paths: HomePaths, argv: string[], json: boolean, changed: (message: string) => number): number | Promise<number> {
  const words = argv.filter((w) => w !== '--json');
  const dash = words.indexOf('--');
  const [verb, sub, a, b, ...rest] = dash === -1 ? words : words.slice(0, dash);
  // The helper / command argv: after `--` (parseArgs drops the `--` itself, so also the plain rest).
  const tail = dash === -1 ? rest : [...rest, ...words.slice(dash + 1)];
  const say = (result: Record<string, unknown>, text: string) => {
    io.out(json ? JSON.stringify({ schema_version: 1, ok: true, result }) : text);
    return EXIT.ok;
  };

  if (verb === 'grant' || verb === 'revoke') {
    if (sub !== 'path' || a === undefined) throw new UsageError(`usage: fermix ${verb} path PATH`);
    return verb === 'grant' ? grantPath(paths, a, say, changed) : revokePath(paths, a, changed);
  }
  if (verb !== 'sandbox') throw new UsageError(`unknown verb "${verb}"`);
  const sandbox = loadConfig(paths.config).config.sandbox;
  switch (sub) {
    case undefined:
    case 'status':
      return status(io, paths, sandbox, json);
    case 'explain': {
      if (words.some((w) => w === '--command' || w.startsWith('--command='))) return explainCommandVerb(io, paths, sandbox, words.slice(2), json);
      if (a === undefined) throw new UsageError('usage: fermix sandbox explain PATH | --command CMD');
      const policy = policyFor(paths, sandbox);
      const context = { baseDir: process.cwd() };
      const read = policy.decide(a, 'read', context);
      const write = policy.decide(a, 'write', context);
      const strip = (d: typeof read) => ({ allowed: d.allowed, reason: d.reason ?? null, real_path: d.realPath ?? null, matched: d.matched ?? null });
      return say({ path: a, mode: sandbox.mode, read: strip(read), write: strip(write) }, policy.explain(a, context));
    }
    case 'mode':
      if (a === undefined || !MODES.includes(a)) throw new UsageError(`usage: fermix sandbox mode ${MODES.join('|')}`);
      updateConfig(paths.config, (raw) => void (((raw.sandbox ??= {}) as Record<string, unknown>).mode = a));
      return changed(`Sandbox mode set to ${a}.${a === 'open' ? ' Open mode lets tools reach all of your home folder except protected paths.' : ''}`);
    case 'commands':
    case 'command':
      if (a === undefined || a === 'list') return listCommands(io, sandbox, json);
      return changed(editCommands(paths, a, b));
    case 'grant':
      if (a !== 'command') throw new UsageError('usage: fermix sandbox grant command NAME -- CMD [ARGS...]');
      return changed(grantCommand(paths, b, tail));
    case 'env':
      if (a === undefined || a === 'list') return listEnv(io, sandbox, json);
      if (a !== 'set' && tail.length > 0) throw new UsageError(`unexpected words after ${b}: ${tail.join(' ')}`);
      return changed(editEnv(paths, a, b, tail));
    default:
      throw new UsageError('usage: fermix sandbox status|explain PATH|explain --command CMD|mode MODE|commands …|env …|grant command NAME -- CMD');
  }
}

/** The same policy the daemon builds (minus its own start folder, which only the daemon knows). */
function policyFor(paths: HomePaths, config: SandboxConfig): PathPolicy {
  return createPathPolicy({
    mode: config.mode,
    home: homedir(),
    fermixHome: paths.home,
    workspace: path.resolve(config.workspace_root ?? paths.workspace),
    allowedRoots: config.allowed_roots,
    blockedRoots: config.blocked_roots,
  });
}


type Say = (result: Record<string, unknown>, text: string) => number;

function grantPath(paths: HomePaths, input: string, say: Say, changed: (m: string) => number): number {
  const sandbox = loadConfig(paths.config).config.sandbox;
  const absolute = path.resolve(process.cwd(), expandHome(input, homedir()));
  const grant = policyFor(paths, sandbox).checkGrant(absolute); // unsafe_root, blocked root
  if (grant.alreadyAllowed) return say({ changed: false, path: grant.path, already_allowed: true }, `${grant.path} is already inside the sandbox roots; nothing to grant.`);
  persistGrant(paths.config, grant.path);
  return changed(`Granted ${grant.path} (added to [sandbox] allowed_roots).`);
}

function revokePath(paths: HomePaths, input: string, changed: (m: string) => number): number {
  const home = homedir();
  const absolute = path.resolve(process.cwd(), expandHome(input, home));
  const forms = new Set([absolute, realRoot(absolute, home)].filter((p): p is string => p !== undefined));
  let removed: string[] = [];
  let remaining: string[] = [];
  updateConfig(paths.config, (raw) => {
    const sandbox = (raw.sandbox ??= {}) as Record<string, unknown>;
    const roots = Array.isArray(sandbox.allowed_roots) ? (sandbox.allowed_roots as unknown[]).map(String) : [];
    const matches = (r: string) => forms.has(path.resolve(expandHome(r, home))) || forms.has(realRoot(r, home) ?? '');
    removed = roots.filter(matches);
    remaining = roots.filter((r) => !matches(r));
    if (removed.length === 0) {
      throw new FermixError({
        code: 'not_granted',
        message: `${absolute} is not in [sandbox] allowed_roots.`,
        hint: remaining.length > 0 ? `Current grants: ${remaining.join(', ')}.` : 'There are no grants; `fermix sandbox status` shows the roots in effect.',
        data: { path: absolute, allowed_roots: remaining },
      });
    }
    sandbox.allowed_roots = remaining;
  });
  return changed(`Revoked ${removed.join(', ')}.`);
}

async function status(io: CliIo, paths: HomePaths, config: SandboxConfig, json: boolean): Promise<number> {
  const policy = policyFor(paths, config);
  const jail = await jailStatus({ enabled: config.jail.enabled, required: config.jail.required, limits: config.jail.limits });
  const commands = describeCommands({ config, daemonEnv: process.env });
  const pid = readPid(paths.pidFile);
  const running = pid !== undefined && isProcessAlive(pid);
  const result = {
    mode: config.mode,
    workspace: path.resolve(config.workspace_root ?? paths.workspace),
    roots: policy.roots(),
    allowed_roots: config.allowed_roots,
    blocked_roots: config.blocked_roots,
    env: { mode: config.env.mode, allow: config.env.allow, deny: config.env.deny, helpers: Object.keys(config.env.helpers) },
    commands: { profile: config.commands.profile, offered: commands.filter((c) => c.visible).map((c) => c.name) },
    jail: {
      active: jail.active,
      required: config.jail.required,
      reason: jail.reason,
      fix: jail.fix,
      pid_namespace: jail.pidNamespace,
      limits: jail.limits === undefined ? null : { ...jail.limits.configured, processes_enforced_by: jail.limits.processes, summary: jail.limits.summary },
      unjailed_warning: jail.active ? null : UNJAILED_WARNING,
    },
    config: paths.config,
    daemon_running: running,
  };
  if (json) {
    io.out(JSON.stringify({ schema_version: 1, ok: true, result }));
    return EXIT.ok;
  }
  const none = (items: string[]) => (items.length === 0 ? '(none)' : items.join(', '));
  const lines = [
    `Sandbox mode: ${config.mode}`,
    `Workspace:    ${result.workspace}`,
    `Roots:        ${none(result.roots)}${config.mode === 'standard' ? ' (+ the daemon\'s start folder and `fermix ask`\'s folder when inside your home)' : ''}`,
    `Grants:       ${none(config.allowed_roots)}`,
    `Blocked:      ${none(config.blocked_roots)}`,
    `Env:          ${config.env.mode}; allowed ${none(config.env.allow)}${result.env.helpers.length > 0 ? `; helpers for ${result.env.helpers.join(', ')}` : ''}`,
    `Commands:     profile ${config.commands.profile}; offered ${none(result.commands.offered)}`,
    jail.active ? `OS jail:      active — ${jail.reason}` : `OS jail:      NOT active — ${jail.reason}`,
  ];
  if (jail.active && jail.limits !== undefined) lines.push(`Limits:       ${jail.limits.summary}`);
  if (!jail.active) {
    lines.push(`              Fix: ${jail.fix}`);
    lines.push(config.jail.required ? '              [sandbox.jail] required = true: shell commands are refused until the jail works.' : `              ${UNJAILED_WARNING}`);
  }
  lines.push(`Config:       ${paths.config}${running ? ' (daemon running: edits apply at once)' : ''}`);
  io.out(lines.join('\n'));
  return EXIT.ok;
}

function listCommands(io: CliIo, config: SandboxConfig, json: boolean): number {
  const commands = describeCommands({ config, daemonEnv: process.env });
  if (json) {
    io.out(JSON.stringify({ schema_version: 1, ok: true, result: { profile: config.commands.profile, commands } }));
    return EXIT.ok;
  }
  const lines = [`Profile: ${config.commands.profile}`];
  for (const c of commands) {
    const what = [c.command, ...c.args].join(' ');
    lines.push(`  ${c.visible ? '✓' : '·'} ${c.name.padEnd(12)} ${c.source.padEnd(9)} ${what}${c.pass_env.length > 0 ? ` (env ${c.pass_env.join(', ')})` : ''}${c.reason ? ` — hidden: ${c.reason}` : ''}`);
  }
  io.out(lines.join('\n'));
  return EXIT.ok;
}

function listEnv(io: CliIo, config: SandboxConfig, json: boolean): number {
  const env = config.env;
  if (json) {
    io.out(JSON.stringify({ schema_version: 1, ok: true, result: { mode: env.mode, allow: env.allow, deny: env.deny, helpers: env.helpers } }));
    return EXIT.ok;
  }
  const lines = [`Mode: ${env.mode} (${env.mode === 'all' ? 'the daemon environment minus deny' : 'a minimal environment plus allow'})`];
  for (const name of env.allow) lines.push(`  allow ${name}${env.helpers[name] ? ` ← \`${env.helpers[name].join(' ')}\`` : ''}`);
  for (const name of env.deny) lines.push(`  deny  ${name}`);
  io.out(lines.join('\n'));
  return EXIT.ok;
}
