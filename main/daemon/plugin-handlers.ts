/** API handlers for plugins.* (main/api/methods/plugins.ts): thin adapters over the plugin service. */
import type { Handlers } from '../api/dispatcher.js';
import type { PluginService } from '../plugins/service.js';

type PluginHandlers = Pick<Handlers, `plugins.${string}` & keyof Handlers>;

export function createPluginHandlers(service: PluginService, options: { onChange?: () => void } = {}): PluginHandlers {
  // Enable, disable and auth changes drop cached prompts so they apply on the next turn.
  const changed = <T>(value: T): T => {
    options.onChange?.();
    return value;
  };
  return {
    'plugins.catalog': () => service.catalog(),
    'plugins.status': (input) => ({ plugins: service.reload().filter((state) => input.name === undefined || state.name === input.name), dev_local: service.supervisor.devLocal() }),
    'plugins.installed': () => ({ plugins: service.installed() }),
    'plugins.install': async (input) => changed(await service.install(input.name, input.version)),
    'plugins.upgrade': async (input) => changed(await service.upgrade(input.name)),
    'plugins.pin': async (input) => changed(await service.pin(input.name, input.version)),
    'plugins.uninstall': (input) => changed(service.uninstall(input.name)),
    'plugins.gc': () => service.gc(),
    'plugins.enable': async (input) => changed(await service.enable(input.name)),
    'plugins.disable': (input) => changed(service.disable(input.name)),
    'plugins.reload': () => changed({ plugins: service.reload(), dev_local: service.supervisor.devLocal() }),
    'plugins.set_secret': async (input) => changed(await service.setSecret(input.name, input.value)),
    'plugins.clear_secret': (input) => changed(service.clearSecret(input.name)),
    'plugins.auth_status': (input) => ({ plugins: service.authStatus(input.name) }),
    'plugins.config': (input) => service.config(input.name),
    'plugins.config_set': (input) => changed(service.configSet(input.name, input.key, input.value)),
    'plugins.doctor': (input) => service.doctor(input.name),
    'plugins.workspaces': (input) => service.hostedWorkspaces(input.name),
    'plugins.workspace_select': async (input) => changed(await service.selectWorkspace(input.name, input.workspace_id, input.profile)),
    'plugins.oauth_client.set': (input) => changed(service.setOAuthClient(input.provider, input)),
    'plugins.oauth_login.start': (input) => service.oauthLoginStart(input.name, input),
    'plugins.oauth_login.wait': async (input) => changed(await service.oauthLoginWait(input.name, input.timeout_ms)),
    'plugins.oauth_refresh': async (input) => changed(await service.oauthRefresh(input.name)),
    'plugins.oauth_logout': async (input) => changed(await service.oauthLogout(input.name)),
  };
}
