/**
 * `fermix plugins …` (reference §2.18). Every verb takes `--json` and answers with the envelope
 * `{"schema_version":1,"ok":true,"result":…}` or `{"schema_version":1,"ok":false,"error":{"code","sentence"}}`;
 * exit 0 ok, 1 refusal, 2 usage (no envelope). With a daemon running, verbs go through its API
 * (plugins.* methods), so changes apply to it at once; without one, the same service runs here and
 * stderr says the change applies when the daemon starts.
 */
import { parseArgs } from 'node:util';
import { ZodError } from 'zod';
import { join } from 'node:path';
import type { HomePaths } from '../../config/home.js';
import { loadConfig } from '../../config/config-file.js';
import { describeIssues, invalidInputMessage } from '../../api/validation-messages.js';
import { FermixError, isFermixError } from '../../core/errors.js';
import { FERMIX_VERSION } from '../../core/version.js';
import { packageRoot } from '../../daemon/package-root.js';
import { createPluginService } from '../../plugins/service.js';
import type { HttpRailNet } from '../../plugins/rails/http/interpreter.js';
import { createSecretStore } from '../../secrets/secret-store.js';
import { readHiddenInput } from '../hidden-input.js';
import { callDaemon } from '../control-client.js';
import { cliCommand, localizeHint } from '../invocation.js';
import { EXIT, UsageError, usageSentence, type CliIo } from '../output.js';
import { OAUTH_CLI_OPTIONS, requireClientId, runOAuthLogin } from './plugins-oauth.js';

export const PLUGINS_USAGE = 'usage: fermix plugins list | catalog | installed | doctor [NAME] | enable NAME | disable NAME | reload | install NAME[@ver] | upgrade NAME | pin NAME@ver | uninstall NAME | gc | auth set NAME [--stdin] | auth clear NAME | auth status [NAME] | auth login|reauthorize NAME [--no-browser] [--port N] [--timeout S] | auth refresh|logout NAME | auth client PROVIDER --client-id ID [--stdin] | config NAME | config set NAME KEY VALUE  [--json]';

export interface PluginsCliDeps {
  /** Where a secret typed or piped in comes from; default the terminal without echo, or stdin. */
  readSecret?: (prompt: string, fromStdin: boolean) => Promise<string>;
  /** Tests only: Net.Guard options for the local health check. */
  net?: HttpRailNet;
  /** Opens the sign-in URL (default: the system browser; tests follow it themselves). */
  openUrl?: (url: string) => void;
}

const MUTATING = new Set(['plugins.install', 'plugins.upgrade', 'plugins.pin', 'plugins.uninstall', 'plugins.gc', 'plugins.enable', 'plugins.disable', 'plugins.reload', 'plugins.set_secret', 'plugins.clear_secret', 'plugins.config_set', 'plugins.oauth_client.set', 'plugins.oauth_refresh', 'plugins.oauth_logout']);

function splitAt(spec: string | undefined, verb: string, required: boolean): { name: string; version?: string } {
  if (!spec) throw new UsageError(`usage: fermix plugins ${verb} NAME${required ? '@VERSION' : '[@VERSION]'}`);
  const [name, version] = spec.split('@');
  if (required && !version) throw new UsageError(`fermix plugins ${verb} needs a version: fermix plugins ${verb} ${name}@X.Y.Z`);
  return version ? { name, version } : { name };
}

/** Which API method and input a command line means. */
export function planPluginsCommand(positionals: string[]): { method: string; input: Record<string, unknown>; needsSecret?: string; secretField?: string; oauthLogin?: boolean } {
  const [verb, a, b, c, d] = positionals;
  const need = (value: string | undefined, usage: string) => {
    if (!value) throw new UsageError(`usage: fermix plugins ${usage}`);
    return value;
  };
  switch (verb) {
    case 'list': return { method: 'plugins.status', input: {} };
    case 'catalog': return { method: 'plugins.catalog', input: {} };
    case 'installed': return { method: 'plugins.installed', input: {} };
    case 'doctor': return { method: 'plugins.doctor', input: a ? { name: a } : {} };
    case 'enable': return { method: 'plugins.enable', input: { name: need(a, 'enable NAME') } };
    case 'disable': return { method: 'plugins.disable', input: { name: need(a, 'disable NAME') } };
    case 'reload': return { method: 'plugins.reload', input: {} };
    case 'install': return { method: 'plugins.install', input: splitAt(a, 'install', false) };
    case 'upgrade': return { method: 'plugins.upgrade', input: { name: need(a, 'upgrade NAME') } };
    case 'pin': return { method: 'plugins.pin', input: splitAt(a, 'pin', true) };
    case 'uninstall': return { method: 'plugins.uninstall', input: { name: need(a, 'uninstall NAME') } };
    case 'gc': return { method: 'plugins.gc', input: {} };
    case 'config':
      if (a === 'set') return { method: 'plugins.config_set', input: { name: need(b, 'config set NAME KEY VALUE'), key: need(c, 'config set NAME KEY VALUE'), value: need(d, 'config set NAME KEY VALUE') } };
      return { method: 'plugins.config', input: { name: need(a, 'config NAME') } };
    case 'auth':
      if (a === 'set') {
        const name = need(b, 'auth set NAME [--stdin]');
        if (c !== undefined) throw new UsageError(`fermix plugins auth set takes no value on the command line: it is visible in \`ps\` and may now be in your shell history, so rotate that key. Run \`fermix plugins auth set ${name}\` and type it, or pipe it: printf '%s' "$KEY" | fermix plugins auth set ${name} --stdin`);
        return { method: 'plugins.set_secret', input: { name }, needsSecret: name };
      }
      if (a === 'clear') return { method: 'plugins.clear_secret', input: { name: need(b, 'auth clear NAME') } };
      if (a === 'status') return { method: 'plugins.auth_status', input: b ? { name: b } : {} };
      // OAuth (main/cli/verbs/plugins-oauth.ts): reauthorize is a fresh login that replaces the refused sign-in.
      if (a === 'login' || a === 'reauthorize') return { method: 'plugins.oauth_login.start', input: { name: need(b, `auth ${a} NAME`) }, oauthLogin: true };
      if (a === 'refresh') return { method: 'plugins.oauth_refresh', input: { name: need(b, 'auth refresh NAME') } };
      if (a === 'logout') return { method: 'plugins.oauth_logout', input: { name: need(b, 'auth logout NAME') } };
      if (a === 'client') return { method: 'plugins.oauth_client.set', input: { provider: need(b, 'auth client PROVIDER --client-id ID') }, needsSecret: `the ${b} OAuth client`, secretField: 'client_secret' };
      throw new UsageError('usage: fermix plugins auth set NAME [--stdin] | auth clear NAME | auth status [NAME] | auth login|reauthorize|refresh|logout NAME | auth client PROVIDER --client-id ID');
    default:
      throw new UsageError(PLUGINS_USAGE);
  }
}

function forPeople(method: string, result: Record<string, unknown>): string {
  if (method === 'plugins.status' || method === 'plugins.reload') {
    const plugins = result.plugins as Record<string, unknown>[];
    // Columns as wide as their longest entry: a fixed 14 pushed google_calendar's row out of line.
    const nameWidth = Math.max(4, ...plugins.map((p) => String(p.name).length));
    const statusWidth = Math.max(6, ...plugins.map((p) => String(p.status).length));
    const rows = plugins.map((p) => `${String(p.name).padEnd(nameWidth)}  ${String(p.status).padEnd(statusWidth)}  ${p.enabled ? 'enabled ' : 'disabled'}  ${String(p.version ?? '-').padEnd(7)}  ${String(p.rail ?? '-').padEnd(4)}  ${p.auth_type ?? '-'}${p.account ? `  ${String(p.account)}` : ''}${p.source === 'dev_local' ? '  (dev_local, unsigned)' : ''}${p.reconnect_needed ? '  reconnect needed' : ''}`);
    if (rows.length) rows.unshift(`${'NAME'.padEnd(nameWidth)}  ${'STATUS'.padEnd(statusWidth)}  ${'ENABLED '}  ${'VERSION'}  RAIL  AUTH`);
    // A refused dev_local folder fails loudly: each one with the field at fault, after the table.
    const dev = result.dev_local as { refusals: { code: string; message: string }[] } | null | undefined;
    for (const refusal of dev?.refusals ?? []) rows.push(`refused dev_local folder — ${refusal.code}: ${refusal.message}`);
    return rows.length ? rows.join('\n') : 'No plugins.';
  }
  if (method === 'plugins.catalog' && Array.isArray(result.plugins)) {
    const entries = result.plugins as Record<string, unknown>[];
    const width = Math.max(4, ...entries.map((p) => String(p.name).length));
    return entries.length ? entries.map((p) => `${String(p.name).padEnd(width)}  ${String(p.description ?? p.display_name ?? '')}`).join('\n') : 'The catalog is empty.';
  }
  if (method === 'plugins.oauth_login.start') return `Signed in: ${String(result.name)} is connected to ${String(result.provider)}. Status: ${String(result.status)}.`;
  if (method === 'plugins.clear_secret') return `Deleted the stored key for ${String(result.name)} and its config reference. Nothing was revoked upstream: revoke the key with the provider if it may be exposed.`;
  if (method === 'plugins.set_secret') return `Stored the key for ${String(result.name)} in the secret store${result.checked ? ' (the provider accepted it)' : ''}${result.account ? ` — connected as ${String(result.account)}` : ''}. Status: ${String(result.status)}.`;
  // enable / disable / install / upgrade / pin / uninstall answer a name and a status: one sentence and the next step.
  if (typeof result.name === 'string' && typeof result.status === 'string' && /^plugins\.(enable|disable|install|upgrade|pin|uninstall)$/.test(method)) {
    const done = { 'plugins.enable': 'Enabled', 'plugins.disable': 'Disabled', 'plugins.install': 'Installed', 'plugins.upgrade': 'Upgraded', 'plugins.pin': 'Pinned', 'plugins.uninstall': 'Uninstalled' }[method];
    const version = typeof result.version === 'string' ? ` ${result.version}` : '';
    const next = method === 'plugins.disable' || method === 'plugins.uninstall' ? '' : (NEXT_STEP[result.status]?.(result.name) ?? '');
    return `${done} ${result.name}${version}. Status: ${result.status.replace(/_/g, ' ')}.${next}`;
  }
  return JSON.stringify(result, null, 2);
}

/** What to run next for a plugin that is not ready yet (the readiness ladder's rungs). */
const NEXT_STEP: Record<string, (name: string) => string> = {
  needs_secret: (name) => ` Next: \`${cliCommand(`plugins auth set ${name}`)}\` (asks for the key without echo).`,
  needs_auth: (name) => ` Next: \`${cliCommand(`plugins auth login ${name}`)}\`.`,
  needs_config: (name) => ` Next: \`${cliCommand(`plugins config ${name}`)}\` shows what to set.`,
  disabled: (name) => ` Turn it on with \`${cliCommand(`plugins enable ${name}`)}\`.`,
};

export async function pluginsVerb(io: CliIo, paths: HomePaths, argv: string[], deps: PluginsCliDeps = {}): Promise<number> {
  const json = argv.includes('--json');
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, strict: true, options: { json: { type: 'boolean', default: false }, stdin: { type: 'boolean', default: false }, ...OAUTH_CLI_OPTIONS } });
  } catch (error) {
    io.err(`fermix: ${(error as Error).message}\n${PLUGINS_USAGE}`);
    return EXIT.usage;
  }
  try {
    const plan = planPluginsCommand(parsed.positionals);
    if (plan.needsSecret) {
      if (plan.secretField) plan.input.client_id = requireClientId(parsed.values['client-id'], String(plan.input.provider));
      const value = await (deps.readSecret ?? ((prompt, fromStdin) => readHiddenInput(io, prompt, fromStdin)))(plan.secretField ? `Client secret for ${plan.needsSecret}` : `Key for ${plan.needsSecret}`, parsed.values.stdin ?? false);
      // Refused here, in words: the local path (no daemon) met zod's raw "Too small" issue list instead.
      if (!value.trim()) throw new FermixError({ code: 'invalid_input', message: `No ${plan.secretField ? 'client secret' : 'key'} was given for ${plan.needsSecret}; nothing was stored.`, hint: `Run \`fermix plugins ${parsed.positionals.join(' ')}\` and type it, or pipe it in with --stdin.` });
      plan.input[plan.secretField ?? 'value'] = value;
    }
    // One local service per command: a login's start and wait must share its loopback listener.
    let local: ((method: string, input: Record<string, unknown>) => Promise<Record<string, unknown>>) | undefined;
    const invoke = async (method: string, input: Record<string, unknown>, timeoutMs = 120_000) => {
      if (local) return local(method, input);
      try {
        return (await callDaemon(paths.socket, method, input, timeoutMs)) as Record<string, unknown>;
      } catch (error) {
        if (!isFermixError(error) || error.code !== 'daemon_not_running') throw error;
        local = await localSession(paths, deps);
        return local(method, input);
      }
    };
    const result = plan.oauthLogin ? await runOAuthLogin(io, String(plan.input.name), parsed.values, invoke, deps.openUrl) : await invoke(plan.method, plan.input);
    if (local) {
      if (MUTATING.has(plan.method) || plan.oauthLogin) io.err('No Fermix daemon is running: the change is saved and applies when the daemon starts.');
      else if (plan.method === 'plugins.doctor' || plan.method === 'plugins.status') io.err('Runtime status unavailable — daemon not running; this is the static install/config/auth result.');
    }
    io.out(json ? JSON.stringify({ schema_version: 1, ok: true, result }) : forPeople(plan.method, result));
    return EXIT.ok;
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`fermix: ${usageSentence(error.message)}`);
      return EXIT.usage;
    }
    // Without a daemon the service runs here and may throw zod's own error (its message is the raw issue list).
    const wire = isFermixError(error)
      ? error.toWire()
      : error instanceof ZodError
        ? { code: 'invalid_input', message: invalidInputMessage(describeIssues(error.issues)), hint: 'Nothing was saved; correct it and try again.' }
        : { code: 'internal_error', message: (error as Error)?.message ?? String(error), hint: 'Run `fermix doctor`.' };
    const hint = localizeHint(wire.hint);
    if (json) io.out(JSON.stringify({ schema_version: 1, ok: false, error: { code: wire.code, sentence: wire.message, hint } }));
    else io.err(`fermix: ${wire.message}${hint ? `\n  → ${hint}` : ''}`);
    return EXIT.failure;
  }
}

async function localSession(paths: HomePaths, deps: PluginsCliDeps): Promise<(method: string, input: Record<string, unknown>) => Promise<Record<string, unknown>>> {
  const core = loadConfig(paths.config).config.fermix_core;
  const service = createPluginService({
    pluginsDir: paths.plugins, configFile: paths.config, resourcesDir: join(packageRoot(), 'resources'), coreVersion: FERMIX_VERSION,
    keychain: createSecretStore({ kind: core.secret_store, profile: core.profile, fermixHome: paths.home }), net: deps.net,
  });
  const { createPluginHandlers } = await import('../../daemon/plugin-handlers.js');
  const handlers = createPluginHandlers(service) as Record<string, (input: unknown, context: unknown) => unknown>;
  const { methodSpec } = await import('../../api/contract.js');
  return async (method, input) => {
    const spec = await methodSpec(method as Parameters<typeof methodSpec>[0]);
    return (await handlers[method](spec.input.parse(input), { transport: 'socket' })) as Record<string, unknown>;
  };
}
