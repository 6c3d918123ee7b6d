/**
 * Every `fermix plugins` operation in one place, used by the daemon's API handlers and by the CLI when
 * no daemon runs. State lives in the store ($FERMIX_HOME/plugins), config.toml ([fermix_core.plugins])
 * and the keychain; `reload()` re-derives readiness and swaps the registered tools.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { createConfigReader } from '../agent/config-reader.js';
import { updateConfig } from '../config/config-file.js';
import type { CapabilityRegistry } from '../core/capabilities/index.js';
import { createRegistry } from '../core/capabilities/index.js';
import { FermixError, isFermixError } from '../core/errors.js';
import type { Keychain } from '../secrets/keychain.js';
import { loadCatalog, type Catalog } from './catalog/catalog.js';
import { compareSemver } from './catalog/build.js';
import { catalogLocation } from './catalog/keys.js';
import type { PluginManifest } from './manifest.js';
import { checkCredential, type HttpRailNet } from './rails/http/interpreter.js';
import { readPluginsSettings, secretItemName, type PluginsSettings } from './settings.js';
import { installPlugin, pickVersion, type InstallProgress } from './store/install.js';
import { createPluginStore } from './store/store.js';
import { createPluginSupervisor, secretItemOf } from './supervisor.js';
import { createOAuthManager } from './auth/oauth-manager.js';
import { oauthServiceMethods } from './auth/service-methods.js';
import { createLocalMcpRail } from './rails/mcp-local/local-rail.js';
import { hostedServiceMethods } from './rails/mcp-hosted/service-methods.js';

export interface PluginServiceDeps {
  pluginsDir: string;
  configFile: string;
  resourcesDir: string;
  coreVersion: string;
  keychain: Pick<Keychain, 'get' | 'has' | 'set' | 'clear'>;
  registry?: CapabilityRegistry;
  net?: HttpRailNet;
  onProgress?: (progress: InstallProgress) => void;
  /**
   * Run MCP-rail plugins (start their processes / connections). Defaults to true when a registry is
   * given — the daemon's — and false otherwise, so a CLI run without a daemon never starts a server.
   */
  runMcp?: boolean;
  /** One stderr line of a local MCP plugin's process (the daemon logs it). */
  onMcpStderr?: (plugin: string, line: string) => void;
}

type RawTable = Record<string, unknown>;

function editPlugins(file: string, edit: (plugins: RawTable) => void): void {
  updateConfig(file, (raw) => {
    const core = (raw.fermix_core ??= {}) as RawTable;
    const plugins = (core.plugins ??= {}) as RawTable;
    edit(plugins);
  });
}

export function createPluginService(deps: PluginServiceDeps) {
  const store = createPluginStore(deps.pluginsDir);
  const location = catalogLocation(deps.resourcesDir);
  // Re-parsed only when config.toml changed (every edit below replaces the file): start-up asked for the
  // settings several times, and each parse cost ~1.4 ms (decision 0027).
  const currentConfig = createConfigReader(deps.configFile);
  const settings = (): PluginsSettings => {
    const read = readPluginsSettings(currentConfig().fermix_core.plugins as Record<string, unknown>);
    // A relative dev_local is relative to the config file's directory ($FERMIX_HOME), never the cwd.
    return read.devLocal ? { ...read, devLocal: resolve(dirname(deps.configFile), read.devLocal) } : read;
  };
  let catalogCache: { trust: boolean; catalog: Catalog | null } | undefined;
  const catalog = (): Catalog | null => {
    const trust = settings().trustDevKey;
    if (catalogCache?.trust !== trust) catalogCache = { trust, catalog: existsSync(join(location.catalogDir, 'index.json')) ? loadCatalog(location, { trustDevKey: trust }) : null };
    return catalogCache.catalog;
  };
  const requireCatalog = (): Catalog => {
    const found = catalog();
    if (!found) throw new FermixError({ code: 'catalog_missing', message: 'This Fermix has no plugin catalog.', hint: 'Build it with `node scripts/build-catalog.mjs` (npm ci runs it), or reinstall Fermix.' });
    return found;
  };
  const registry = deps.registry ?? createRegistry();
  // Token changes (a login finishing in the background, a refused refresh) re-derive readiness at once.
  const oauth = createOAuthManager({ configFile: deps.configFile, secrets: deps.keychain, net: deps.net ?? {}, onTokensChanged: () => supervisor.reload() });
  const localMcp = (deps.runMcp ?? deps.registry !== undefined) ? createLocalMcpRail({ registry, onStderrLine: deps.onMcpStderr }) : undefined;
  // Hosted MCP (plugin_api 3): sessions only in the daemon, like the local rail; workspace choices in the store.
  const hosted = hostedServiceMethods({ pluginsDir: deps.pluginsDir, registry, net: deps.net ?? {}, run: deps.runMcp ?? deps.registry !== undefined, token: (name) => { const item = secretItemOf(settings(), name); return item ? deps.keychain.get(item) : null; }, installedManifest: (name) => installedManifest(name), state: (name) => state(name)?.status ?? 'error' });
  const supervisor = createPluginSupervisor({ store, get catalog() { return catalog(); }, registry, coreVersion: deps.coreVersion, settings, secrets: deps.keychain, net: deps.net ?? {}, oauthClients: () => oauth.configuredProviders(), oauth, localMcp, hostedMcp: hosted.rail, hostedChoice: hosted.choice });
  const installDeps = () => ({ store, catalog: requireCatalog(), coreVersion: deps.coreVersion, net: deps.net, onProgress: deps.onProgress });

  const installedManifest = (name: string): PluginManifest => {
    const dev = supervisor.devPlugin(name);
    if (dev) return dev.manifest;
    const loaded = store.load(name, catalog()?.keys ?? []);
    if (!loaded) throw new FermixError({ code: 'not_installed', message: `The ${name} plugin is not installed.`, hint: `Run \`fermix plugins install ${name}\` (or \`fermix plugins enable ${name}\`).`, data: { plugin: name } });
    return loaded.manifest;
  };
  const state = (name: string) => supervisor.reload().find((entry) => entry.name === name);

  return {
    store,
    registry,
    supervisor,
    oauth,
    ...oauthServiceMethods({ oauth, installedManifest, state: (name) => state(name)?.status ?? 'error' }),
    hostedWorkspaces: hosted.workspaces,
    selectWorkspace: hosted.select,
    hostedMcp: hosted.rail,
    reload: () => supervisor.reload(),
    /** Daemon shutdown: stops every MCP-rail plugin process (their whole process groups). */
    close: async () => {
      await localMcp?.close();
      await hosted.rail?.close();
    },
    catalog() {
      const index = catalog();
      return {
        trust_dev_key: settings().trustDevKey,
        plugins: (index?.index.plugins ?? []).map((entry) => ({
          name: entry.name, display_name: entry.display_name, description: entry.description, category: entry.category,
          auth_type: entry.auth_type, auth_provider: entry.auth_provider, rails: entry.rails, latest: entry.latest, bundled: entry.bundled,
          versions: entry.versions.map((v) => v.version), installed: store.current(entry.name),
          short_description: entry.short_description, developer_name: entry.developer_name, brand_color: entry.brand_color, logo: entry.logo, runtime_kind: entry.runtime_kind ?? null,
        })),
      };
    },
    installed: () => store.list(),
    /**
     * Daemon start (after /health/ready): installs every bundled plugin (the Google trio) the store lacks,
     * through the same verified install as `plugins install` — so the trio is always present. Idempotent
     * and cheap once installed (one pointer read each). A refusal is reported, never thrown: the daemon
     * runs on without that plugin and its card shows why.
     */
    async installBundled(): Promise<{ installed: string[]; failed: { name: string; code: string; message: string }[] }> {
      const index = catalog();
      const installedNow: string[] = [];
      const failed: { name: string; code: string; message: string }[] = [];
      for (const entry of index?.index.plugins.filter((plugin) => plugin.bundled) ?? []) {
        if (store.current(entry.name) !== null) continue;
        try {
          await installPlugin(installDeps(), entry.name);
          installedNow.push(entry.name);
        } catch (error) {
          failed.push({ name: entry.name, code: isFermixError(error) ? error.code : 'install_failed', message: error instanceof Error ? error.message : String(error) });
        }
      }
      if (installedNow.length > 0) supervisor.reload();
      return { installed: installedNow, failed };
    },
    async install(name: string, version?: string) {
      const provenance = await installPlugin(installDeps(), name, { version });
      return { name, version: provenance.version, status: state(name)?.status ?? 'disabled' };
    },
    async upgrade(name: string) {
      const current = store.current(name);
      if (current === null) throw new FermixError({ code: 'not_installed', message: `The ${name} plugin is not installed, so there is nothing to upgrade.`, hint: `Run \`fermix plugins install ${name}\`.` });
      const target = pickVersion(requireCatalog(), name, deps.coreVersion);
      // Upgrading is an explicit choice of the newest compatible version: it ends a pin.
      store.setPinned(name, null);
      if (compareSemver(target.version, current) <= 0 && store.load(name, requireCatalog().keys)) {
        return { name, from: current, to: current, upgraded: false, status: state(name)?.status ?? 'disabled' };
      }
      await installPlugin(installDeps(), name, { version: target.version });
      return { name, from: current, to: target.version, upgraded: true, status: state(name)?.status ?? 'disabled' };
    },
    async pin(name: string, version: string) {
      if (!store.hasVersion(name, version)) await installPlugin(installDeps(), name, { version, makeCurrent: false });
      store.setCurrent(name, version);
      store.setPinned(name, version);
      return { name, version, pinned: true, status: state(name)?.status ?? 'disabled' };
    },
    uninstall(name: string) {
      if (catalog()?.entry(name)?.bundled) throw new FermixError({ code: 'bundled_plugin', message: `${name} is bundled with Fermix and cannot be uninstalled.`, hint: `Disable it instead: \`fermix plugins disable ${name}\`.`, data: { plugin: name } });
      const removed = store.remove(name);
      if (!removed) throw new FermixError({ code: 'not_installed', message: `The ${name} plugin is not installed.`, hint: 'Run `fermix plugins installed` to see what is.' });
      supervisor.reload();
      return { name, removed };
    },
    gc: () => {
      const removed = store.gc();
      return { removed };
    },
    async enable(name: string) {
      let installed = false;
      if (store.current(name) === null && !supervisor.devPlugin(name)) {
        await installPlugin(installDeps(), name);
        installed = true;
      }
      editPlugins(deps.configFile, (plugins) => {
        const enabled = new Set(Array.isArray(plugins.enabled) ? (plugins.enabled as string[]) : []);
        enabled.add(name);
        plugins.enabled = [...enabled].sort();
      });
      return { name, enabled: true, installed, status: state(name)?.status ?? 'error' };
    },
    disable(name: string) {
      editPlugins(deps.configFile, (plugins) => {
        plugins.enabled = (Array.isArray(plugins.enabled) ? (plugins.enabled as string[]) : []).filter((entry) => entry !== name);
      });
      return { name, enabled: false, status: state(name)?.status ?? 'disabled' };
    },
    async setSecret(name: string, value: string) {
      const manifest = installedManifest(name);
      if (manifest.auth.type !== 'api_key') throw new FermixError({ code: 'wrong_auth_type', message: `${name} signs in with ${manifest.auth.type}, not an API key.`, hint: manifest.auth.type === 'oauth2' ? `Run \`fermix plugins auth login ${name}\`.` : `${name} needs no credential.` });
      const secret = value.trim();
      const rules = manifest.auth.validation;
      if (secret === '' || /\s/.test(secret) || (rules?.prefix && !secret.startsWith(rules.prefix)) || (rules?.min_bytes && secret.length < rules.min_bytes) || (rules?.max_bytes && secret.length > rules.max_bytes)) {
        throw new FermixError({ code: 'invalid_secret', message: `That does not look like a ${manifest.auth.prompt}${rules?.prefix ? ` (it should start with ${rules.prefix})` : ''}; it was not stored.`, hint: `Run \`fermix plugins auth set ${name}\` again with the right value.` });
      }
      // A hosted plugin's token is checked by the service itself (initialize, contract, workspace list).
      const check = manifest.runtime?.kind === 'remote_mcp' ? await hosted.checkToken(manifest, secret) : await checkCredential(name, manifest.auth, secret, deps.net ?? {});
      if (!check.accepted) throw new FermixError({ code: 'api_key_rejected', message: `API key rejected by ${manifest.display_name}; it was not stored.`, hint: `Create a new key, then update it with \`fermix plugins auth set ${name}\`.`, data: { plugin: name } });
      const item = secretItemName(name, manifest.auth.key_name);
      deps.keychain.set(item, secret);
      editPlugins(deps.configFile, (plugins) => {
        const table = ((plugins[name] ??= {}) as RawTable);
        table.secret_ref = `keychain:${item}`;
        if (check.account) table.account = check.account;
        else delete table.account;
      });
      return { name, stored: true, checked: manifest.auth.health_check !== undefined || manifest.runtime?.kind === 'remote_mcp', account: check.account, status: state(name)?.status ?? 'error' };
    },
    clearSecret(name: string) {
      const item = secretItemOf(settings(), name);
      // The keychain item goes first: a crash in between leaves a dangling reference, never a stray secret.
      const deleted = item ? deps.keychain.clear(item) : false;
      editPlugins(deps.configFile, (plugins) => {
        const table = plugins[name] as RawTable | undefined;
        if (table) {
          delete table.secret_ref;
          delete table.account;
        }
      });
      return { name, deleted, revoked_upstream: false, status: state(name)?.status ?? 'disabled' };
    },
    authStatus(name?: string) {
      const current = settings();
      return supervisor.reload().filter((entry) => name === undefined || entry.name === name).map((entry) => ({
        name: entry.name, auth_type: entry.auth_type, status: entry.status, secret_set: (() => { const item = secretItemOf(current, entry.name); return item !== null && deps.keychain.has(item); })(), account: entry.account,
        // OAuth: the setup page's Reconnect needed badge (an invalidated sign-in, or one idle 1 h past expiry).
        ...(entry.auth_type === 'oauth2' ? { oauth_connected: oauth.facts(entry.name).connected, reconnect_needed: entry.reconnect_needed } : {}),
      }));
    },
    config(name: string) {
      const manifest = installedManifest(name);
      const table = settings().tables[name] ?? {};
      return { name, keys: manifest.config.map((entry) => ({ key: entry.key, prompt: entry.prompt, required: entry.required, kind: entry.kind, value: table[entry.key] ?? null })) };
    },
    configSet(name: string, key: string, value: string) {
      const manifest = installedManifest(name);
      const declared = manifest.config.find((entry) => entry.key === key);
      if (!declared) throw new FermixError({ code: 'unknown_config_key', message: `${name} declares no config key ${key}${manifest.config.length ? ` (it has ${manifest.config.map((e) => e.key).join(', ')})` : ' (it has none)'}.`, hint: `Run \`fermix plugins config ${name}\` to see its keys.`, data: { plugin: name, key } });
      let typed: string | boolean = value;
      if (declared.kind === 'boolean') {
        if (value !== 'true' && value !== 'false') throw new FermixError({ code: 'invalid_config_value', message: `${name} ${key} is true or false, not "${value}".`, hint: `Run \`fermix plugins config set ${name} ${key} true\` (or false).` });
        typed = value === 'true';
      }
      editPlugins(deps.configFile, (plugins) => {
        ((plugins[name] ??= {}) as RawTable)[key] = typed;
      });
      return { name, key, value: typed, status: state(name)?.status ?? 'disabled' };
    },
    doctor(name?: string) {
      const trust = settings().trustDevKey;
      const states = supervisor.reload().filter((entry) => name === undefined || entry.name === name);
      return { trust_dev_key: trust, dev_local: supervisor.devLocal(), plugins: states.map((entry) => ({ name: entry.name, status: entry.status, enabled: entry.enabled, version: entry.version, detail: entry.detail, live: entry.live ?? null, remote: entry.remote ?? false })) };
    },
  };
}
export type PluginService = ReturnType<typeof createPluginService>;
