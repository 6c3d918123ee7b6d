/**
 * Doctor's `plugins` row (reference §2.17): the static install/config/auth result per enabled plugin,
 * refusals as `status/detail`; WARN when the development catalog key is trusted (decision 0015) or
 * unsigned `dev_local` plugin folders are loaded (with every refused folder and its field).
 * Outside the daemon it never infers `ready`: it says the runtime status is unavailable.
 */
import type { DoctorCheck, DoctorResult } from '../daemon/doctor.js';
import type { PluginService } from './service.js';

export function pluginsDoctorCheck(service: () => Pick<PluginService, 'doctor'>, options: { insideDaemon: boolean }): DoctorCheck {
  return {
    id: 'plugins',
    title: 'plugins',
    run(): DoctorResult {
      const report = service().doctor();
      const enabled = report.plugins.filter((plugin) => plugin.enabled);
      const notReady = enabled.filter((plugin) => plugin.status !== 'ready');
      const parts: string[] = [];
      if (!options.insideDaemon) parts.push('runtime status unavailable — daemon not running');
      parts.push(enabled.length === 0 ? 'none enabled' : enabled.map((plugin) => {
        // MCP-rail plugins: the live connection state (memory only), e.g. "eden ready (remote; upstream_contract_mismatch)".
        const live = plugin.live && options.insideDaemon ? ` (${plugin.remote ? 'remote; ' : ''}${plugin.live}${plugin.detail ? `: ${plugin.detail}` : ''})` : plugin.remote ? ' (remote; runtime state unavailable)' : '';
        if (plugin.status === 'ready' && options.insideDaemon) return plugin.live && plugin.live !== 'ready' ? `${plugin.name}${live}` : plugin.remote ? `${plugin.name} (remote; ready)` : plugin.name;
        return `${plugin.name} ${plugin.status}${plugin.detail && !plugin.live ? `/${plugin.detail}` : ''}${live}`;
      }).join(', '));
      const dev = report.dev_local;
      if (dev) {
        // Unsigned code is running (or refused): always a WARN, naming every refused folder and its field.
        const refused = dev.refusals.map((refusal) => `${refusal.folder} ${refusal.code} (${refusal.field})`);
        const what = `unsigned plugins are loaded from dev_local ${dev.dir}: ${dev.loaded.length ? dev.loaded.join(', ') : 'none'}${refused.length ? `; refused: ${refused.join(', ')}` : ''}`;
        return { status: 'WARN', detail: `${what}${report.trust_dev_key ? '; the development catalog key is trusted' : ''}; ${parts.join('; ')}`, fix: refused.length ? `Fix the refused folder's plugin.json (${dev.refusals[0].message}), then run \`fermix plugins reload\`.` : 'Remove `dev_local` from [fermix_core.plugins] in config.toml unless you are developing a plugin.' };
      }
      if (report.trust_dev_key) {
        return { status: 'WARN', detail: `the development catalog key is trusted ([fermix_core.plugins] trust_dev_key = true); ${parts.join('; ')}`, fix: 'Remove `trust_dev_key` from [fermix_core.plugins] in config.toml unless this is a development build.' };
      }
      const broken = options.insideDaemon ? enabled.find((plugin) => plugin.live !== undefined && plugin.live !== null && !['ready', 'connecting', 'retrying'].includes(plugin.live)) : undefined;
      if (broken) return { status: 'WARN', detail: parts.join('; '), fix: `Run \`fermix plugins doctor ${broken.name}\`; after fixing the cause, disable and enable it again (\`fermix plugins disable ${broken.name}\`, \`fermix plugins enable ${broken.name}\`).` };
      if (notReady.some((plugin) => plugin.status === 'error' || plugin.status === 'incompatible')) {
        const first = notReady.find((plugin) => plugin.status === 'error' || plugin.status === 'incompatible')!;
        return { status: 'WARN', detail: parts.join('; '), fix: first.status === 'incompatible' ? `Run \`fermix plugins upgrade ${first.name}\`.` : `Run \`fermix plugins install ${first.name}\`.` };
      }
      return { status: 'OK', detail: parts.join('; '), fix: '' };
    },
  };
}

/**
 * Doctor's `auth tokens` row (reference §2.16, `auth_token_expiry`): enabled OAuth plugins whose
 * sign-in is stale (idle more than 1 h past expiry) or was refused by the provider.
 */
export function authTokensDoctorCheck(service: () => PluginService): DoctorCheck {
  return {
    id: 'auth_token_expiry',
    title: 'auth tokens',
    run(): DoctorResult {
      const plugins = service().authStatus().filter((plugin) => plugin.auth_type === 'oauth2' && plugin.oauth_connected);
      if (plugins.length === 0) return { status: 'N/A', detail: 'no OAuth plugin is signed in', fix: '' };
      const stale = plugins.filter((plugin) => plugin.reconnect_needed).map((plugin) => plugin.name);
      if (stale.length > 0) return { status: 'WARN', detail: `stale, re-auth may be needed: ${stale.join(', ')}`, fix: `Run \`fermix plugins auth reauthorize ${stale[0]}\`.` };
      return { status: 'OK', detail: `${plugins.map((plugin) => plugin.name).join(', ')} signed in`, fix: '' };
    },
  };
}
