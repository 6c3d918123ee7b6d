/**
 * `[fermix_core.plugins]` (reference §3.2/§3.3): `enabled` (plugin names), `trust_dev_key` (trust the
 * development catalog key, decision 0015; doctor WARNs), and one `[fermix_core.plugins.<name>]` table
 * per plugin holding its manifest-declared config keys (UPPER_CASE, text or boolean), `secret_ref`
 * (the secret-store item holding its api_key) and `account` (who that key signed in as, from the health check),
 * and `dev_local` (a directory of unsigned plugin source folders, main/plugins/dev-local.ts; doctor WARNs).
 * Nothing else is accepted.
 */
import { z } from 'zod';
import { PLUGIN_NAME } from './manifest.js';
import { ONE_SHOT_PARSE } from '../core/one-shot-parse.js';

const CONFIG_KEY = /^[A-Z][A-Z0-9_]*$/;

export const pluginTableSchema = z.record(z.string(), z.union([z.string(), z.boolean()])).superRefine((table, context) => {
  for (const key of Object.keys(table)) {
    if (key === 'account') {
      if (typeof table[key] !== 'string') context.addIssue({ code: 'custom', path: [key], message: 'must be a string (the account the stored key belongs to)' });
    } else if (key === 'secret_ref') {
      if (typeof table[key] !== 'string' || !/^keychain:[A-Za-z_][A-Za-z0-9_]{0,127}$/.test(String(table[key]))) context.addIssue({ code: 'custom', path: [key], message: 'must be "keychain:<item name>"' });
    } else if (!CONFIG_KEY.test(key)) context.addIssue({ code: 'custom', path: [key], message: 'is not a plugin config key (UPPER_CASE, as the manifest declares), secret_ref or account' });
  }
});
export type PluginTable = z.infer<typeof pluginTableSchema>;

export const pluginsSettingsSchema = z.record(z.string(), z.unknown()).superRefine((value, context) => {
  for (const [key, item] of Object.entries(value)) {
    if (key === 'enabled') {
      if (!Array.isArray(item) || item.some((name) => typeof name !== 'string' || !PLUGIN_NAME.test(name))) context.addIssue({ code: 'custom', path: [key], message: 'must be a list of plugin names' });
    } else if (key === 'trust_dev_key') {
      if (typeof item !== 'boolean') context.addIssue({ code: 'custom', path: [key], message: 'must be true or false' });
    } else if (key === 'dev_local') {
      if (typeof item !== 'string' || item.trim() === '') context.addIssue({ code: 'custom', path: [key], message: 'must be the path of a directory of plugin source folders' });
    } else if (PLUGIN_NAME.test(key)) {
      const parsed = pluginTableSchema.safeParse(item, ONE_SHOT_PARSE);
      if (!parsed.success) for (const issue of parsed.error.issues) context.addIssue({ code: 'custom', path: [key, ...issue.path.map(String)], message: issue.message });
    } else {
      context.addIssue({ code: 'custom', path: [key], message: 'is not a known key (enabled, trust_dev_key, dev_local, or a [fermix_core.plugins.<name>] table)' });
    }
  }
}).default({});

export interface PluginsSettings {
  enabled: string[];
  trustDevKey: boolean;
  /** `dev_local`: the directory whose subfolders load as unsigned plugins, or null. */
  devLocal: string | null;
  tables: Record<string, PluginTable>;
}

/** The typed view the supervisor and the CLI use. */
export function readPluginsSettings(raw: Record<string, unknown> | undefined): PluginsSettings {
  const value = raw ?? {};
  const tables: Record<string, PluginTable> = {};
  for (const [key, item] of Object.entries(value)) if (key !== 'enabled' && key !== 'trust_dev_key' && key !== 'dev_local' && item && typeof item === 'object') tables[key] = item as PluginTable;
  return { enabled: Array.isArray(value.enabled) ? (value.enabled as string[]) : [], trustDevKey: value.trust_dev_key === true, devLocal: typeof value.dev_local === 'string' && value.dev_local.trim() !== '' ? value.dev_local : null, tables };
}

export const secretItemName = (plugin: string, keyName: string) => `plugin_${plugin}_${keyName}`;
