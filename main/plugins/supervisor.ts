/**
 * The plugin supervisor: decides every plugin's readiness, registers ready plugins' tools as
 * `<plugin>_<tool>` (kind builtin, metadata plugin_owned, category plugin) in one atomic
 * `replace_kind` swap, and feeds the runtime prompt's `## Plugins` section. `reload()` re-reads
 * settings, so enable/disable/auth changes apply on the next turn without a restart.
 * A disabled plugin's tools stay registered hidden from the agent, refusing with an enable hint, so a
 * model that remembers one from an earlier turn gets the fix instead of "unknown tool".
 */
import type { Capability, CapabilityRegistry } from '../core/capabilities/index.js';
import { FermixError, isFermixError } from '../core/errors.js';
import type { Keychain } from '../secrets/keychain.js';
import type { OAuthManager } from './auth/oauth-manager.js';
import type { Catalog } from './catalog/catalog.js';
import { compareSemver } from './catalog/build.js';
import type { ManifestTool, PluginManifest } from './manifest.js';
import { callHttpTool, type HttpRailNet } from './rails/http/interpreter.js';
import { decideReadiness, type Readiness } from './readiness/ladder.js';
import { scanDevLocal, type DevLocalRefusal } from './dev-local.js';
import type { LocalMcpRail, LocalPluginSpec } from './rails/mcp-local/local-rail.js';
import type { HostedMcpRail, HostedPluginSpec } from './rails/mcp-hosted/hosted-rail.js';
import type { HostedChoice } from './rails/mcp-hosted/workspace-choice.js';
import { probeRuntime } from './rails/mcp-local/runtime-probe.js';
import { type PluginsSettings } from './settings.js';
import { SUPPORTED_PLUGIN_API } from './store/install.js';
import type { PluginStore } from './store/store.js';

export interface PluginState {
  name: string;
  status: Readiness;
  enabled: boolean;
  version: string | null;
  rail: string | null;
  auth_type: string | null;
  account: string | null;
  tools: string[];
  detail: string | null;
  /** MCP-rail plugins: the live connection state (connecting, ready, retrying, quarantined…), memory only. */
  live?: string;
  /** Hosted MCP: content sent to its tools leaves the machine. */
  remote?: boolean;
  /** `catalog` (signed, from the store) or `dev_local` (an unsigned source folder, main/plugins/dev-local.ts). */
  source: 'catalog' | 'dev_local';
  /**
   * OAuth: the Reconnect needed badge — the provider refused the sign-in, or it sat unused more than
   * 1 h past expiry (token-store `isStale`, the rule doctor's `auth tokens` row reads through this too).
   */
  reconnect_needed: boolean;
}

/** The last dev_local scan: what loaded and each refused folder with the field at fault. */
export interface DevLocalReport {
  dir: string;
  loaded: string[];
  refusals: DevLocalRefusal[];
}

export interface SupervisorDeps {
  store: PluginStore;
  catalog: Catalog | null;
  registry: CapabilityRegistry;
  coreVersion: string;
  settings: () => PluginsSettings;
  /** `[fermix_core.oauth]` provider names with a client id and secret configured. */
  oauthClients?: () => string[];
  /** Plugin OAuth (main/plugins/auth/oauth-manager.ts): token facts for readiness, the access token for calls. */
  oauth?: Pick<OAuthManager, 'facts' | 'credential' | 'refresh' | 'invalidate'>;
  secrets: Pick<Keychain, 'get' | 'has'>;
  net: HttpRailNet;
  /** The local-MCP rail (rails/mcp-local): ready plugins with a node/python/binary runtime run there. */
  localMcp?: LocalMcpRail;
  /** The hosted-MCP rail (rails/mcp-hosted): ready remote_mcp plugins connect there. */
  hostedMcp?: HostedMcpRail;
  /** A hosted plugin's workspace and profile, chosen on the setup screen (rails/mcp-hosted/workspace-choice.ts). */
  hostedChoice?: (name: string) => HostedChoice | null;
}

const FAMILY = { plugin_owned: true } as const;

export function secretItemOf(settings: PluginsSettings, name: string): string | null {
  const ref = settings.tables[name]?.secret_ref;
  return typeof ref === 'string' && ref.startsWith('keychain:') ? ref.slice('keychain:'.length) : null;
}

export function createPluginSupervisor(deps: SupervisorDeps) {
  let states: PluginState[] = [];
  let localNames = new Set<string>();
  let hostedNames = new Set<string>();
  let devReport: DevLocalReport | null = null;
  // Catalog and store names are taken: a dev folder with one of them is refused (dev-local.ts).
  const scanDev = (settings: PluginsSettings) => (settings.devLocal ? scanDevLocal(settings.devLocal, new Set([...(deps.catalog?.index.plugins.map((p) => p.name) ?? []), ...deps.store.list().map((plugin) => plugin.name)])) : null);

  function toolCapability(manifest: PluginManifest, tool: ManifestTool, ready: boolean): Capability {
    const name = manifest.name;
    const auth = manifest.auth;
    const executor: Capability['executor'] = !ready
      ? undefined
      : auth.type === 'oauth2' && deps.oauth
        ? async (args, context) => {
          const oauth = deps.oauth!;
          let sent = false;
          const call = () => callHttpTool(tool, args, { plugin: name, auth, net: deps.net, signal: context.signal, credential: async () => { const token = await oauth.credential(name, auth); sent = true; return token; } });
          try {
            return await call();
          } catch (error) {
            // Only a provider 401 (the token was sent) is retried, and only for read-only tools: one
            // silent refresh, then once more. A write that got a 401 surfaces the reauthorize error at
            // once — it may have been partly applied, and repeating it could apply it twice.
            if (!sent || !isFermixError(error) || error.code !== 'reauthorization_required') throw error;
            if (!tool.read_only) {
              oauth.invalidate(name);
              throw error;
            }
            await oauth.refresh(name, auth);
            sent = false;
            try {
              return await call();
            } catch (retryError) {
              if (sent && isFermixError(retryError) && retryError.code === 'reauthorization_required') oauth.invalidate(name);
              throw retryError;
            }
          }
        }
        : async (args, context) => {
          const item = secretItemOf(deps.settings(), name);
          return callHttpTool(tool, args, { plugin: name, auth, net: deps.net, signal: context.signal, credential: async () => (item ? deps.secrets.get(item) : null) });
        };
    const refusal: Capability['executor'] = async () => {
      throw new FermixError({ code: 'plugin_disabled', message: `The ${name} plugin is disabled, so ${tool.name} cannot run.`, hint: `Enable it with \`fermix plugins enable ${name}\` (or on the setup Plugins page).`, data: { plugin: name } });
    };
    return {
      name: tool.name,
      description: tool.description,
      parameters: tool.parameters ?? { type: 'object', properties: {} },
      kind: 'builtin',
      executor: executor ?? refusal,
      hidden_from_agent: !ready,
      policy_class: tool.policy_class,
      metadata: { category: 'plugin', plugin: name, plugin_owned: true, requires_setup: ready ? undefined : `fermix plugins enable ${name}` },
      group: 'plugin',
      scope_requirements: tool.requires_scopes ?? [],
      audit_behavior: 'full',
      is_stateful: false,
      is_mutating: !tool.read_only,
      is_network: true,
    };
  }

  function reload(): PluginState[] {
    const settings = deps.settings();
    const installed = new Map(deps.store.list().map((plugin) => [plugin.name, plugin]));
    // Unsigned dev folders are read fresh on every reload (an edit applies on `plugins reload`); a
    // folder whose name a signed plugin has is refused, never allowed to shadow it.
    const dev = scanDev(settings);
    devReport = dev ? { dir: dev.dir, loaded: [...dev.plugins.keys()], refusals: dev.refusals } : null;
    const names = new Set<string>([...(deps.catalog?.index.plugins.map((p) => p.name) ?? []), ...installed.keys(), ...(dev?.plugins.keys() ?? []), ...settings.enabled]);
    const next: PluginState[] = [];
    const caps: Capability[] = [];
    const localSpecs: Record<string, LocalPluginSpec> = {};
    const hostedSpecs: Record<string, HostedPluginSpec> = {};
    for (const name of [...names].sort()) {
      let manifest: PluginManifest | null = null;
      let dir: string | null = null;
      let loadError: string | null = null;
      const devPlugin = dev?.plugins.get(name);
      try {
        const loaded = devPlugin ?? (installed.has(name) ? deps.store.load(name, deps.catalog?.keys ?? []) : null);
        manifest = loaded?.manifest ?? null;
        dir = loaded?.dir ?? null;
      } catch (error) {
        loadError = isFermixError(error) ? `${error.code}: ${error.message}` : String(error);
      }
      const enabled = settings.enabled.includes(name);
      const compatible = manifest === null || (compareSemver(manifest.min_core_version, deps.coreVersion) <= 0 && (SUPPORTED_PLUGIN_API as readonly number[]).includes(manifest.plugin_api));
      const item = secretItemOf(settings, name);
      const table = settings.tables[name] ?? {};
      const runtime = manifest?.runtime;
      // Probed only for enabled plugins: a disabled one costs no process.
      const probe = enabled && runtime && runtime.kind !== 'remote_mcp' ? probeRuntime(runtime) : null;
      const status = decideReadiness({
        enabled, manifest, loadError, compatible,
        hostRuntimeOk: probe === null ? runtime?.kind === 'remote_mcp' || !manifest?.tools.some((tool) => tool.rail === 'mcp') : probe.ok,
        config: Object.fromEntries(Object.entries(table).filter(([key]) => key !== 'secret_ref' && key !== 'account')),
        hasSecret: item !== null && deps.secrets.has(item),
        workspaceChosen: runtime?.kind === 'remote_mcp' && (deps.hostedChoice?.(name) ?? null) !== null,
        oauthClientConfigured: manifest?.auth.type === 'oauth2' && (deps.oauthClients?.() ?? []).includes(manifest.auth.provider),
        oauthConnected: manifest?.auth.type === 'oauth2' && (deps.oauth?.facts(name).connected ?? false),
        oauthInvalidated: manifest?.auth.type === 'oauth2' && (deps.oauth?.facts(name).invalidated ?? false),
      });
      const entry = deps.catalog?.entry(name);
      const oauthFacts = manifest?.auth.type === 'oauth2' ? deps.oauth?.facts(name) : undefined;
      if (manifest && (status === 'ready' || (status === 'disabled' && compatible))) {
        for (const tool of manifest.tools) if (tool.rail === 'http') caps.push(toolCapability(manifest, tool, status === 'ready'));
      }
      const config = Object.fromEntries(Object.entries(table).filter(([key]) => key !== 'secret_ref' && key !== 'account'));
      if (manifest && dir && status === 'ready' && runtime && runtime.kind !== 'remote_mcp') localSpecs[name] = { manifest, dir, config };
      // Hosted: a ready plugin connects with its stored token to the one workspace chosen on the setup screen.
      const hostedChoice = manifest && status === 'ready' && runtime?.kind === 'remote_mcp' ? deps.hostedChoice?.(name) ?? null : null;
      const hostedToken = hostedChoice && item ? deps.secrets.get(item) : null;
      if (manifest && hostedChoice && hostedToken) hostedSpecs[name] = { manifest, token: hostedToken, choice: hostedChoice };
      next.push({
        name, status, enabled,
        version: manifest?.version ?? deps.store.current(name),
        rail: manifest ? [...new Set(manifest.tools.map((tool) => tool.rail))].join(',') : entry?.rails.join(',') ?? null,
        auth_type: manifest?.auth.type ?? entry?.auth_type ?? null,
        account: oauthFacts ? oauthFacts.account : typeof table.account === 'string' && item !== null ? table.account : null,
        tools: status === 'ready' && manifest ? manifest.tools.filter((tool) => tool.rail === 'http').map((tool) => tool.name) : [],
        detail: loadError ?? (status === 'missing_host_runtime' ? probe?.detail ?? null : null),
        ...(runtime?.kind === 'remote_mcp' ? { remote: true } : {}),
        source: devPlugin ? 'dev_local' : 'catalog',
        reconnect_needed: oauthFacts !== undefined && oauthFacts.connected && (status === 'reauthorization_required' || oauthFacts.stale),
      });
    }
    // Local MCP plugins run under their own supervision; their tools register when the server is up.
    deps.localMcp?.apply(localSpecs);
    localNames = new Set(Object.keys(localSpecs));
    deps.hostedMcp?.apply(hostedSpecs);
    hostedNames = new Set(Object.keys(hostedSpecs));
    // One synchronous swap: no reader sees half the old plugin tools and half the new ones.
    deps.registry.replace_kind('builtin', FAMILY, caps);
    states = next;
    return withLive();
  }

  /** MCP-rail plugins' live connection state is read at call time (it changes after reload returns). */
  function withLive(): PluginState[] {
    return states.map((state) => {
      const live = localNames.has(state.name) ? deps.localMcp?.state(state.name) : hostedNames.has(state.name) ? deps.hostedMcp?.state(state.name) : undefined;
      return live ? { ...state, live: live.status, tools: live.tools, detail: live.last_error } : state;
    });
  }

  return {
    reload,
    states: withLive,
    /** The dev_local scan of the last reload (null when `dev_local` is not set). */
    devLocal: () => devReport,
    /** A dev_local plugin's manifest and folder, read now (config, auth and enable need it without a reload). */
    devPlugin: (name: string) => scanDev(deps.settings())?.plugins.get(name) ?? null,
    /** For the runtime prompt: enabled plugins only (ready ones list their tools from the registry). */
    // A hosted plugin that is enabled and ready on paper but not connected shows its live state (status=upstream_contract_mismatch…).
    promptStatus: () => withLive().filter((state) => state.enabled).map((state) => ({ name: state.name, status: state.remote && state.status === 'ready' && state.live && state.live !== 'ready' ? state.live : state.status })),
  };
}
export type PluginSupervisor = ReturnType<typeof createPluginSupervisor>;
