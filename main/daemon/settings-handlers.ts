/**
 * API handlers of settings.* (main/api/methods/settings.ts): the Settings screen's permission mode, sandbox
 * mode and folder grants, and the transcription endpoint. Each edit is one `updateConfig` call (validated,
 * atomic), the same edits as `fermix sandbox mode`, `fermix grant path` and `fermix revoke path`.
 *
 * The permission gate reads its mode per call (compose.ts), so a mode change applies to the next call.
 * The sandbox is built at start: its edits say "after restart" unless the composition root passes
 * `reloadSandbox` (then grants and the sandbox mode apply at once).
 */
import path from 'node:path';
import type { Handlers } from '../api/dispatcher.js';
import type { SettingsView } from '../api/methods/settings.js';
import { loadConfig, updateConfig } from '../config/config-file.js';
import type { FermixConfig } from '../config/schema.js';
import { FermixError } from '../core/errors.js';
import type { Keychain } from '../secrets/keychain.js';
import { createPathPolicy, persistGrant } from '../sandbox/index.js';
import { expandHome, realRoot } from '../sandbox/real-path.js';

export type SettingsMethodName = 'settings.get' | 'settings.update' | 'settings.grant_path' | 'settings.revoke_path' | 'settings.set_transcription_key';

export interface SettingsHandlersOptions {
  configFile: string;
  /** $FERMIX_HOME and its default workspace (homePaths()). */
  fermixHome: string;
  workspace: string;
  /** The person's home folder (os.homedir()). */
  home: string;
  keychain: (profile: string) => Pick<Keychain, 'set'>;
  /** Rebuild the running sandbox from the new `[sandbox]` table; without it, sandbox edits apply after a restart. */
  reloadSandbox?: (config: FermixConfig) => void;
}

type Table = Record<string, unknown>;
const table = (parent: Table, key: string): Table => {
  const value = parent[key];
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value as Table;
  const fresh: Table = {};
  parent[key] = fresh;
  return fresh;
};

export const TRANSCRIPTION_KEY_NAME = 'TRANSCRIPTION_API_KEY';

/** The permission modes in the words Settings shows beside the choice. */
const PERMISSION_MODE_WORDS = {
  ask: 'ask before anything that changes files or runs commands',
  auto: 'allow changes without asking, except where a rule says ask or deny',
  read_only: 'read only — anything that would change something is refused',
} as const;

export function createSettingsHandlers(options: SettingsHandlersOptions): Pick<Handlers, SettingsMethodName> {
  const file = options.configFile;
  const sandboxApplies = options.reloadSandbox ? 'now' : 'after_restart';

  const view = (config: FermixConfig = loadConfig(file).config): SettingsView => ({
    config_file: file,
    permissions: {
      mode: config.permissions.mode,
      rules: config.permissions.rules.map((rule) => ({ permission: rule.permission, pattern: rule.pattern ?? null, action: rule.action, source: rule.source, unjailed: rule.unjailed === true })),
    },
    sandbox: {
      mode: config.sandbox.mode,
      workspace: path.resolve(config.sandbox.workspace_root ?? options.workspace),
      allowed_roots: config.sandbox.allowed_roots,
      blocked_roots: config.sandbox.blocked_roots,
    },
    transcription: {
      base_url: config.fermix_core.transcription.base_url ?? null,
      model: config.fermix_core.transcription.model ?? null,
      api_key_ref: config.fermix_core.transcription.api_key_ref ?? null,
      max_file_mb: config.fermix_core.transcription.max_file_mb,
    },
    computer_use: { enabled: config.fermix_core.computer_use.enabled },
    // Providers, the gate's mode and transcription are read per request; the sandbox at start-up unless reloaded.
    applies: { providers: 'now', permissions: 'now', sandbox: sandboxApplies, transcription: 'now' },
  });

  const sandboxChanged = (config: FermixConfig) => options.reloadSandbox?.(config);
  const restartNote = (what: 'permissions' | 'sandbox') =>
    (what === 'sandbox' ? sandboxApplies : 'now') === 'now' ? 'It applies to the next call.' : 'It applies after `fermix restart`.';

  return {
    'settings.get': () => view(),
    'settings.update': (input) => {
      const said: string[] = [];
      const before = loadConfig(file).config;
      const next = updateConfig(file, (raw) => {
        if (input.permission_mode !== undefined) table(raw, 'permissions').mode = input.permission_mode;
        if (input.sandbox_mode !== undefined) table(raw, 'sandbox').mode = input.sandbox_mode;
        if (input.transcription !== undefined) {
          const transcription = table(table(raw, 'fermix_core'), 'transcription');
          for (const key of ['base_url', 'model'] as const) {
            const value = input.transcription[key];
            if (value === undefined) continue;
            if (value === null || value === '') delete transcription[key];
            else transcription[key] = value;
          }
        }
      });
      if (input.permission_mode !== undefined && input.permission_mode !== before.permissions.mode) said.push(`Permissions: ${PERMISSION_MODE_WORDS[input.permission_mode]}. ${restartNote('permissions')}`);
      if (input.sandbox_mode !== undefined && input.sandbox_mode !== before.sandbox.mode) {
        sandboxChanged(next);
        said.push(`Sandbox mode set to ${input.sandbox_mode}.${input.sandbox_mode === 'open' ? ' Open mode lets tools reach all of your home folder except protected paths.' : ''} ${restartNote('sandbox')}`);
      }
      if (input.transcription !== undefined) said.push('Transcription settings saved; the next recording uses them.');
      return { ...view(next), message: said.join(' ') || 'Nothing changed.' };
    },
    'settings.grant_path': (input) => {
      const config = loadConfig(file).config;
      const absolute = path.resolve(options.home, expandHome(input.path, options.home));
      const policy = createPathPolicy({
        mode: config.sandbox.mode,
        home: options.home,
        fermixHome: options.fermixHome,
        workspace: path.resolve(config.sandbox.workspace_root ?? options.workspace),
        allowedRoots: config.sandbox.allowed_roots,
        blockedRoots: config.sandbox.blocked_roots,
      });
      const grant = policy.checkGrant(absolute); // throws unsafe_root / sandbox_denied with its own hint
      if (grant.alreadyAllowed) return { ...view(config), message: `${grant.path} is already inside the sandbox roots; nothing to grant.` };
      const next = persistGrant(file, grant.path);
      sandboxChanged(next);
      return { ...view(next), message: `Fermix may now use ${grant.path} (saved in config.toml as an allowed root). ${restartNote('sandbox')}` };
    },
    'settings.revoke_path': (input) => {
      const absolute = path.resolve(options.home, expandHome(input.path, options.home));
      const forms = new Set([absolute, realRoot(absolute, options.home)].filter((p): p is string => p !== undefined));
      let removed: string[] = [];
      const next = updateConfig(file, (raw) => {
        const sandbox = table(raw, 'sandbox');
        const roots = Array.isArray(sandbox.allowed_roots) ? (sandbox.allowed_roots as unknown[]).map(String) : [];
        const matches = (root: string) => forms.has(path.resolve(expandHome(root, options.home))) || forms.has(realRoot(root, options.home) ?? '');
        removed = roots.filter(matches);
        if (removed.length === 0) {
          throw new FermixError({
            code: 'not_granted',
            message: `${absolute} is not in [sandbox] allowed_roots.`,
            hint: roots.length > 0 ? `Current grants: ${roots.join(', ')}.` : 'There are no grants; Settings → Sandbox shows the roots in effect.',
            data: { path: absolute, allowed_roots: roots },
          });
        }
        sandbox.allowed_roots = roots.filter((root) => !matches(root));
      });
      sandboxChanged(next);
      return { ...view(next), message: `Revoked ${removed.join(', ')}. ${restartNote('sandbox')}` };
    },
    'settings.set_transcription_key': (input) => {
      const profile = loadConfig(file).config.fermix_core.profile;
      options.keychain(profile).set(TRANSCRIPTION_KEY_NAME, input.api_key);
      const next = updateConfig(file, (raw) => {
        table(table(raw, 'fermix_core'), 'transcription').api_key_ref = `@keyring:${TRANSCRIPTION_KEY_NAME}`;
      });
      return { ...view(next), message: 'Stored the transcription key in the OS keychain; the next recording uses it.' };
    },
  };
}
