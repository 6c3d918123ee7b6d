import { z } from 'zod';
import { defineMethod } from '../define.js';

/** Plugin management (seed 001): what `fermix plugins` and the setup Plugins page call. */
const name = z.string().regex(/^[a-z][a-z0-9_]{0,63}$/);
const version = z.string().regex(/^\d+\.\d+\.\d+$/);
const status = z.string();

export const pluginStateSchema = z.object({
  name: z.string(),
  status,
  enabled: z.boolean(),
  version: z.string().nullable(),
  rail: z.string().nullable(),
  auth_type: z.string().nullable(),
  account: z.string().nullable(),
  tools: z.array(z.string()),
  detail: z.string().nullable(),
  /** MCP-rail plugins: the daemon's live connection state (memory only), e.g. upstream_contract_mismatch. */
  live: z.string().optional(),
  /** Hosted MCP: what its tools are sent leaves the machine. */
  remote: z.boolean().optional(),
  /** catalog (signed) or dev_local (an unsigned folder under `[fermix_core.plugins] dev_local`). */
  source: z.enum(['catalog', 'dev_local']),
  /** OAuth: refused by the provider, or idle more than 1 h past expiry — the Reconnect needed badge. */
  reconnect_needed: z.boolean(),
});

/** `[fermix_core.plugins] dev_local`: the folders that loaded, and each refused one with the field at fault. */
export const devLocalReportSchema = z.object({ dir: z.string(), loaded: z.array(z.string()), refusals: z.array(z.object({ folder: z.string(), code: z.string(), field: z.string(), message: z.string() })) }).nullable();

const installedSchema = z.object({ name: z.string(), current: z.string().nullable(), pinned: z.string().nullable(), versions: z.array(z.string()) });

export const pluginMethods = {
  'plugins.catalog': defineMethod({
    description: 'The plugins this build\'s signed catalog offers, with the installed version of each.',
    input: z.object({}).strict().default({}),
    output: z.object({ trust_dev_key: z.boolean(), plugins: z.array(z.object({ name: z.string(), display_name: z.string(), description: z.string(), category: z.string(), auth_type: z.string(), auth_provider: z.string().nullable(), rails: z.array(z.string()), latest: z.string(), bundled: z.boolean(), versions: z.array(z.string()), installed: z.string().nullable(),
      // For the window's catalog cards (logo, developer, and the consent line, which depends on where the plugin runs).
      short_description: z.string().optional(), developer_name: z.string().optional(), brand_color: z.string().nullable().optional(), logo: z.object({ mime: z.string(), data_base64: z.string() }).nullable().optional(), runtime_kind: z.enum(['local_stdio', 'remote_mcp']).nullable().optional() })) }),
  }),
  'plugins.status': defineMethod({
    description: 'Readiness of every known plugin (catalog, installed, enabled), re-derived now.',
    input: z.object({ name: name.optional() }).strict().default({}),
    output: z.object({ plugins: z.array(pluginStateSchema), dev_local: devLocalReportSchema.optional() }),
  }),
  'plugins.installed': defineMethod({
    description: 'The local plugin store: versions, current and pinned per plugin.',
    input: z.object({}).strict().default({}),
    output: z.object({ plugins: z.array(installedSchema) }),
  }),
  'plugins.install': defineMethod({
    description: 'Install NAME (a version, or the newest compatible) from the catalog; plugins.install_progress events report the phases.',
    input: z.object({ name, version: version.optional() }).strict(),
    output: z.object({ name: z.string(), version: z.string(), status }),
  }),
  'plugins.upgrade': defineMethod({
    description: 'Move NAME to the newest compatible catalog version (ends a pin).',
    input: z.object({ name }).strict(),
    output: z.object({ name: z.string(), from: z.string(), to: z.string(), upgraded: z.boolean(), status }),
  }),
  'plugins.pin': defineMethod({
    description: 'Make NAME@version current and keep it through gc and upgrades until `plugins upgrade`.',
    input: z.object({ name, version }).strict(),
    output: z.object({ name: z.string(), version: z.string(), pinned: z.boolean(), status }),
  }),
  'plugins.uninstall': defineMethod({
    description: 'Remove NAME from the store (bundled plugins are refused).',
    input: z.object({ name }).strict(),
    output: z.object({ name: z.string(), removed: z.boolean() }),
  }),
  'plugins.gc': defineMethod({
    description: 'Delete installed versions that are neither current nor pinned.',
    input: z.object({}).strict().default({}),
    output: z.object({ removed: z.array(z.object({ name: z.string(), version: z.string() })) }),
  }),
  'plugins.enable': defineMethod({
    description: 'Enable NAME (installing it from the catalog when needed); applies on the next turn.',
    input: z.object({ name }).strict(),
    output: z.object({ name: z.string(), enabled: z.boolean(), installed: z.boolean(), status }),
  }),
  'plugins.disable': defineMethod({
    description: 'Disable NAME; its tools refuse with an enable hint from the next turn.',
    input: z.object({ name }).strict(),
    output: z.object({ name: z.string(), enabled: z.boolean(), status }),
  }),
  'plugins.reload': defineMethod({
    description: 'Re-read plugin settings, store and secrets, and swap the registered plugin tools.',
    input: z.object({}).strict().default({}),
    output: z.object({ plugins: z.array(pluginStateSchema), dev_local: devLocalReportSchema.optional() }),
  }),
  'plugins.set_secret': defineMethod({
    description: 'Store an api_key plugin\'s key in the keychain after its health check accepts it.',
    input: z.object({ name, value: z.string().min(1).max(8192) }).strict(),
    output: z.object({ name: z.string(), stored: z.boolean(), checked: z.boolean(), account: z.string().nullable(), status }),
  }),
  'plugins.clear_secret': defineMethod({
    description: 'Delete the stored key and its config reference (nothing is revoked upstream).',
    input: z.object({ name }).strict(),
    output: z.object({ name: z.string(), deleted: z.boolean(), revoked_upstream: z.boolean(), status }),
  }),
  'plugins.auth_status': defineMethod({
    description: 'Auth type, whether a secret is set, and readiness, per plugin.',
    input: z.object({ name: name.optional() }).strict().default({}),
    output: z.object({ plugins: z.array(z.object({ name: z.string(), auth_type: z.string().nullable(), status, secret_set: z.boolean(), account: z.string().nullable(), oauth_connected: z.boolean().optional(), reconnect_needed: z.boolean().optional() })) }),
  }),
  'plugins.config': defineMethod({
    description: 'The manifest-declared config keys of NAME with their values.',
    input: z.object({ name }).strict(),
    output: z.object({ name: z.string(), keys: z.array(z.object({ key: z.string(), prompt: z.string(), required: z.boolean(), kind: z.string(), value: z.union([z.string(), z.boolean()]).nullable() })) }),
  }),
  'plugins.config_set': defineMethod({
    description: 'Set one manifest-declared [fermix_core.plugins.<name>] value.',
    input: z.object({ name, key: z.string().regex(/^[A-Z][A-Z0-9_]*$/), value: z.string().max(4096) }).strict(),
    output: z.object({ name: z.string(), key: z.string(), value: z.union([z.string(), z.boolean()]), status }),
  }),
  'plugins.oauth_client.set': defineMethod({
    description: 'Set the OAuth client of a provider ([fermix_core.oauth.<provider>]; the secret goes to the secret store).',
    input: z.object({ provider: z.enum(['google', 'github', 'notion', 'x', 'slack', 'tesla']), client_id: z.string().min(1).max(512), client_secret: z.string().min(1).max(4096), redirect_host: z.enum(['127.0.0.1', '[::1]']).optional(), redirect_port: z.number().int().min(0).max(65535).optional() }).strict(),
    output: z.object({ provider: z.string(), configured: z.boolean() }),
  }),
  'plugins.oauth_login.start': defineMethod({
    description: 'Start an OAuth sign-in for NAME: returns the URL to open; the loopback redirect completes it.',
    input: z.object({ name, port: z.number().int().min(0).max(65535).optional(), timeout_ms: z.number().int().min(1_000).max(1_800_000).optional() }).strict(),
    output: z.object({ name: z.string(), provider: z.string(), url: z.string(), redirect_uri: z.string() }),
  }),
  'plugins.oauth_login.wait': defineMethod({
    description: 'Wait until the started sign-in of NAME completes (or fails, naming the fix).',
    input: z.object({ name, timeout_ms: z.number().int().min(1_000).max(1_800_000).default(300_000) }).strict(),
    output: z.object({ name: z.string(), connected: z.boolean(), status }),
  }),
  'plugins.oauth_refresh': defineMethod({
    description: 'Refresh NAME\'s OAuth access token now.',
    input: z.object({ name }).strict(),
    output: z.object({ name: z.string(), refreshed: z.boolean(), expires_at: z.string().nullable(), status }),
  }),
  'plugins.oauth_logout': defineMethod({
    description: 'Sign NAME out: delete its tokens from the secret store (revoked upstream where the provider allows).',
    input: z.object({ name }).strict(),
    output: z.object({ name: z.string(), deleted: z.boolean(), revoked_upstream: z.boolean(), status }),
  }),
  'plugins.workspaces': defineMethod({
    description: 'A hosted plugin\'s workspaces as its stored token lists them (setup screen only), the token\'s scope, its access profiles and the current choice.',
    input: z.object({ name }).strict(),
    output: z.object({ name: z.string(), workspaces: z.array(z.object({ id: z.string(), label: z.string() })), credential_scope: z.enum(['read', 'write']),
      profiles: z.array(z.object({ name: z.string(), display_name: z.string(), default: z.boolean(), required_credential_scope: z.enum(['read', 'write']), tools: z.number().int() })),
      chosen: z.object({ workspace_id: z.string(), workspace_label: z.string(), profile: z.string() }).nullable() }),
  }),
  'plugins.workspace_select': defineMethod({
    description: 'Pin one listed workspace and an access profile for a hosted plugin (the setup screen; a write profile needs a write-scoped token).',
    input: z.object({ name, workspace_id: z.string().min(1).max(256), profile: z.string().regex(/^[a-z][a-z0-9_]{0,31}$/).optional() }).strict(),
    output: z.object({ name: z.string(), workspace_id: z.string(), workspace_label: z.string(), profile: z.string(), status }),
  }),
  'plugins.doctor': defineMethod({
    description: 'The plugins row of doctor: each plugin\'s live readiness and detail, and the dev-key trust setting.',
    input: z.object({ name: name.optional() }).strict().default({}),
    output: z.object({ trust_dev_key: z.boolean(), dev_local: devLocalReportSchema.optional(), plugins: z.array(z.object({ name: z.string(), status, enabled: z.boolean(), version: z.string().nullable(), detail: z.string().nullable(),
      /** MCP-rail plugins: the daemon's live connection state (memory only); null for HTTP-rail plugins. */
      live: z.string().nullable().optional(), remote: z.boolean().optional() })) }),
  }),
};
