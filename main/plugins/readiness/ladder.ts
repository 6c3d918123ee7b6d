/**
 * The readiness ladder, decided in Fermix's order (issue item 6): the first rung that applies wins.
 * Only `ready` registers tools. `disabled` is a plugin that is not enabled (tezra-io: not_configured);
 * `error` is one that cannot be loaded (a failed provenance check, a bad manifest).
 */
import type { PluginManifest } from '../manifest.js';

export const READINESS_ORDER = ['not_installed', 'incompatible', 'missing_host_runtime', 'needs_config', 'needs_secret', 'needs_workspace', 'needs_client_config', 'needs_auth', 'reauthorization_required', 'ready'] as const;
export type Readiness = (typeof READINESS_ORDER)[number] | 'disabled' | 'error';

export interface ReadinessFacts {
  enabled: boolean;
  manifest: PluginManifest | null;
  loadError: string | null;
  compatible: boolean;
  /** Local MCP: the declared runtime was found (always true for HTTP-rail plugins). */
  hostRuntimeOk: boolean;
  config: Record<string, string | boolean>;
  hasSecret: boolean;
  /** Hosted MCP only: a workspace is pinned. */
  workspaceChosen: boolean;
  oauthClientConfigured: boolean;
  oauthConnected: boolean;
  oauthInvalidated: boolean;
}

export function decideReadiness(facts: ReadinessFacts): Readiness {
  if (!facts.enabled) return 'disabled';
  if (facts.loadError !== null) return 'error';
  const manifest = facts.manifest;
  if (manifest === null) return 'not_installed';
  if (!facts.compatible) return 'incompatible';
  if (!facts.hostRuntimeOk) return 'missing_host_runtime';
  if (manifest.config.some((entry) => entry.required && (facts.config[entry.key] === undefined || facts.config[entry.key] === ''))) return 'needs_config';
  if (manifest.auth.type === 'api_key' && !facts.hasSecret) return 'needs_secret';
  if (manifest.runtime?.kind === 'remote_mcp' && !facts.workspaceChosen) return 'needs_workspace';
  if (manifest.auth.type === 'oauth2') {
    if (!facts.oauthClientConfigured) return 'needs_client_config';
    if (!facts.oauthConnected) return 'needs_auth';
    if (facts.oauthInvalidated) return 'reauthorization_required';
  }
  return 'ready';
}
