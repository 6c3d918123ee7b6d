/**
 * The plugin service's hosted-MCP part: the rail (daemon only), the setup screen's workspace list and
 * choice (workspace + access profile, never a CLI verb or a config key), and the token check used when
 * a hosted plugin's key is stored (initialize + setup-tool contract + discovery, instead of a
 * health_check URL).
 */
import type { CapabilityRegistry } from '../../../core/capabilities/index.js';
import { FermixError, isFermixError } from '../../../core/errors.js';
import type { PluginManifest } from '../../manifest.js';
import type { HttpRailNet } from '../http/interpreter.js';
import { createHostedMcpRail, discoverWorkspaces, type DiscoveredWorkspaces } from './hosted-rail.js';
import { profileOf } from './hosted-tools.js';
import { createWorkspaceChoices } from './workspace-choice.js';

export interface HostedServiceDeps {
  pluginsDir: string;
  registry: CapabilityRegistry;
  net: HttpRailNet;
  /** Start sessions (the daemon); a CLI run without a daemon connects nothing. */
  run: boolean;
  token: (name: string) => string | null;
  installedManifest: (name: string) => PluginManifest;
  state: (name: string) => string;
}

function hostedManifest(deps: HostedServiceDeps, name: string): PluginManifest {
  const manifest = deps.installedManifest(name);
  if (manifest.runtime?.kind !== 'remote_mcp' || !manifest.resource_scope) {
    throw new FermixError({ code: 'not_a_hosted_plugin', message: `${name} is not a hosted plugin with a workspace, so it has none to choose.`, hint: 'Only hosted plugins (such as Eden) have a workspace; see `fermix plugins list`.', data: { plugin: name } });
  }
  return manifest;
}

export function hostedServiceMethods(deps: HostedServiceDeps) {
  const choices = createWorkspaceChoices(deps.pluginsDir);
  const rail = deps.run ? createHostedMcpRail({ registry: deps.registry, net: deps.net }) : undefined;

  async function discover(name: string): Promise<{ manifest: PluginManifest; found: DiscoveredWorkspaces }> {
    const manifest = hostedManifest(deps, name);
    const token = deps.token(name);
    if (!token) throw new FermixError({ code: 'needs_secret', message: `${manifest.display_name} has no stored access token, so its workspaces cannot be listed.`, hint: `Add the token on the Plugins screen (${manifest.display_name} → Add API key) or with \`fermix plugins auth set ${name}\`.`, data: { plugin: name } });
    return { manifest, found: await discoverWorkspaces(manifest, token, deps.net) };
  }

  return {
    rail,
    choice: (name: string) => choices.get(name),
    /** plugins.workspaces: the workspaces the stored token reaches, its scope, the profiles, and the current choice. */
    async workspaces(name: string) {
      const { manifest, found } = await discover(name);
      return {
        name,
        workspaces: found.workspaces,
        credential_scope: found.credential_scope,
        profiles: (manifest.tool_profiles ?? []).map((profile) => ({ name: profile.name, display_name: profile.display_name, default: profile.default, required_credential_scope: profile.required_credential_scope, tools: profile.tools.length })),
        chosen: choices.get(name),
      };
    },
    /** plugins.workspace_select: pins one listed workspace and a profile; a write profile needs a write-scoped token. */
    async select(name: string, workspaceId: string, profileName?: string) {
      const { manifest, found } = await discover(name);
      const workspace = found.workspaces.find((entry) => entry.id === workspaceId);
      if (!workspace) throw new FermixError({ code: 'workspace_not_found', message: `${manifest.display_name} lists no workspace ${workspaceId} for this token.`, hint: `Pick one of the listed workspaces on the Plugins screen (${manifest.display_name} → Setup).`, data: { plugin: name } });
      if (profileName !== undefined && !(manifest.tool_profiles ?? []).some((profile) => profile.name === profileName)) {
        throw new FermixError({ code: 'unknown_profile', message: `${manifest.display_name} has no profile ${profileName} (it has ${(manifest.tool_profiles ?? []).map((p) => p.name).join(', ')}).`, hint: 'Choose one of the profiles the setup screen shows.', data: { plugin: name } });
      }
      const profile = profileOf(manifest, profileName ?? null);
      if (profile.required_credential_scope === 'write' && found.credential_scope !== 'write') {
        throw new FermixError({ code: 'insufficient_credential_scope', message: `The ${profile.display_name} profile needs a write-scoped ${manifest.display_name} token, and the stored one is read-only; nothing was changed.`, hint: `Create a write-scoped token in ${manifest.display_name}, store it on the Plugins screen, then choose the profile again.`, data: { plugin: name } });
      }
      choices.set(name, { workspace_id: workspace.id, workspace_label: workspace.label, profile: profile.name });
      return { name, workspace_id: workspace.id, workspace_label: workspace.label, profile: profile.name, status: deps.state(name) };
    },
    /** setSecret's check for a hosted plugin: a rejected token is `api_key_rejected`; other failures keep their own code. */
    async checkToken(manifest: PluginManifest, token: string): Promise<{ accepted: boolean; account: string | null }> {
      try {
        await discoverWorkspaces(manifest, token, deps.net);
        return { accepted: true, account: null };
      } catch (error) {
        if (isFermixError(error) && error.code === 'reauthorization_required') return { accepted: false, account: null };
        throw error;
      }
    },
  };
}
