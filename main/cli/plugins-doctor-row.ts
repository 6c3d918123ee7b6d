/**
 * `fermix doctor`'s plugins row from the CLI: the running daemon's live answer (plugins.doctor, so a
 * hosted plugin reads "eden (remote; upstream_contract_mismatch: …)"), or — no daemon — the static
 * install/config/auth result, which says the runtime state is unavailable and never infers `ready` for
 * a hosted plugin's connection ("(remote; runtime state unavailable)").
 */
import { join } from 'node:path';
import type { HomePaths } from '../config/home.js';
import { loadConfig } from '../config/config-file.js';
import { FERMIX_VERSION } from '../core/version.js';
import type { DoctorCheck } from '../daemon/doctor.js';
import { packageRoot } from '../daemon/package-root.js';
import { pluginsDoctorCheck } from '../plugins/doctor-check.js';
import { createPluginService, type PluginService } from '../plugins/service.js';
import { createSecretStore } from '../secrets/secret-store.js';
import { callDaemon } from './control-client.js';

export function cliPluginsDoctorCheck(paths: HomePaths): DoctorCheck {
  return {
    id: 'plugins',
    title: 'plugins',
    async run() {
      const live = (await callDaemon(paths.socket, 'plugins.doctor', {}, 10_000).catch(() => null)) as ReturnType<PluginService['doctor']> | null;
      if (live) return pluginsDoctorCheck(() => ({ doctor: () => live }), { insideDaemon: true }).run();
      const core = loadConfig(paths.config).config.fermix_core;
      const service = createPluginService({
        pluginsDir: paths.plugins, configFile: paths.config, resourcesDir: join(packageRoot(), 'resources'), coreVersion: FERMIX_VERSION,
        keychain: createSecretStore({ kind: core.secret_store, profile: core.profile, fermixHome: paths.home }),
      });
      return pluginsDoctorCheck(() => service, { insideDaemon: false }).run();
    },
  };
}
