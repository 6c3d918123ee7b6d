import { existsSync, statSync } from 'node:fs';
import { loosePermissions, type HomePaths } from '../config/home.js';
import { loadConfig } from '../config/config-file.js';
import { isFermixError } from '../core/errors.js';
import { openDatabase, type Database } from '../store/database.js';
import { auditStoreSize } from '../store/audit-store.js';
import { formatFileSize } from '../api/attachment-rules.js';
import { readPid, isProcessAlive } from './pid-lock.js';
import { callDaemon } from '../cli/control-client.js';
import type { DoctorCheck } from './doctor.js';
import { jailStatus } from '../sandbox/jail.js';
import { browserDoctorCheck } from '../browser/doctor-row.js';
import { createSecretStore } from '../secrets/secret-store.js';
import { secretFile } from '../secrets/file-store.js';
import { computerUseDoctorCheck, type ComputerUseDoctorOptions } from '../computer/doctor-row.js';
import { providersDoctorCheck } from './provider-doctor-row.js';
import { mcpDoctorCheck } from '../mcp/doctor-row.js';
import type { ServerState } from '../mcp/supervisor.js';

/**
 * The first doctor rows: home permissions, config validity, daemon socket, database, log activity.
 * `insideDaemon` avoids the daemon opening its own database twice or calling itself over the socket;
 * `db` is the daemon's open database (the audit row reads its size from it).
 */
export function baseDoctorChecks(paths: HomePaths, options: { insideDaemon: boolean; db?: Database; computerUse?: Omit<ComputerUseDoctorOptions, 'configFile'>; full?: boolean; mcp?: () => ServerState[] }): DoctorCheck[] {
  return [
    {
      id: 'home_permissions',
      title: 'home permissions',
      run() {
        if (!existsSync(paths.home)) return { status: 'WARN', detail: `${paths.home} does not exist yet`, fix: 'Run `fermix daemon` once; it creates the home.' };
        const loose = loosePermissions(paths);
        return loose.length
          ? { status: 'FAIL', detail: `readable by other accounts: ${loose.join(', ')}`, fix: `chmod 700 ${loose.map((entry) => entry.split(' ')[0]).join(' ')}` }
          : { status: 'OK', detail: 'home directories are private (0700)', fix: '' };
      },
    },
    {
      id: 'config',
      title: 'config',
      run() {
        try {
          const loaded = loadConfig(paths.config);
          return { status: 'OK', detail: loaded.exists ? `${paths.config} is valid` : 'no config.toml yet (all defaults)', fix: '' };
        } catch (error) {
          if (!isFermixError(error)) throw error;
          return { status: 'FAIL', detail: error.message, fix: error.hint };
        }
      },
    },
    {
      id: 'daemon_socket',
      title: 'daemon socket',
      async run() {
        if (options.insideDaemon) return { status: 'OK', detail: `serving ${paths.socket}`, fix: '' };
        const pid = readPid(paths.pidFile);
        if (pid === undefined || !isProcessAlive(pid)) return { status: 'WARN', detail: 'daemon not running', fix: 'Start it with `fermix daemon` (or `npm start`).' };
        try {
          await callDaemon(paths.socket, 'system.health', {}, 3000);
          const mode = statSync(paths.socket).mode & 0o777;
          return mode === 0o600
            ? { status: 'OK', detail: `pid ${pid} answers on ${paths.socket}`, fix: '' }
            : { status: 'FAIL', detail: `socket mode is ${mode.toString(8)}, not 600`, fix: '`fermix restart` recreates it with mode 0600' };
        } catch (error) {
          return { status: 'FAIL', detail: `pid ${pid} is alive but the socket does not answer: ${(error as Error).message}`, fix: '`fermix restart`' };
        }
      },
    },
    {
      id: 'database',
      title: 'database',
      run() {
        if (options.insideDaemon) return { status: 'OK', detail: `${paths.database} open`, fix: '' };
        if (!existsSync(paths.database)) return { status: 'N/A', detail: 'no database yet', fix: '' };
        const pid = readPid(paths.pidFile);
        if (pid !== undefined && isProcessAlive(pid)) return { status: 'OK', detail: `held open by the daemon (pid ${pid})`, fix: '' };
        try {
          const db = openDatabase(paths.database, { ownsDaemonLock: false });
          const version = db.schemaVersion();
          db.close();
          return { status: 'OK', detail: `schema version ${version}`, fix: '' };
        } catch (error) {
          return { status: 'FAIL', detail: (error as Error).message, fix: 'Start the daemon (`fermix daemon`), which clears a stale lock left by a crash.' };
        }
      },
    },
    {
      id: 'audit_store',
      title: 'audit store',
      run() {
        let limits;
        try {
          limits = loadConfig(paths.config).config.audit;
        } catch {
          return { status: 'N/A', detail: 'config.toml is invalid (see the config row)', fix: '' };
        }
        const bounds = `cap ${limits.max_size_mb} MB, ${limits.retention_days} days`;
        const describe = (db: Database) => {
          const size = auditStoreSize(db);
          return { status: 'OK' as const, detail: `${size.records} records, about ${formatFileSize(size.bytes)} (${bounds}; the oldest go first)`, fix: '' };
        };
        if (options.db) return describe(options.db);
        if (options.insideDaemon) return { status: 'N/A', detail: `size not wired in this host (${bounds})`, fix: '' };
        if (!existsSync(paths.database)) return { status: 'N/A', detail: `no database yet (${bounds})`, fix: '' };
        // The running daemon holds the database exclusively; its own doctor (the doctor.start API) reads it.
        const pid = readPid(paths.pidFile);
        if (pid !== undefined && isProcessAlive(pid)) return { status: 'N/A', detail: `held open by the daemon (pid ${pid}); ${bounds}`, fix: 'To read the size here, stop the daemon (`fermix stop`) and run `fermix doctor` again.' };
        try {
          const db = openDatabase(paths.database, { ownsDaemonLock: false });
          try {
            return describe(db);
          } finally {
            db.close();
          }
        } catch (error) {
          return { status: 'FAIL', detail: (error as Error).message, fix: 'Start the daemon (`fermix daemon`), which clears a stale lock left by a crash.' };
        }
      },
    },
    {
      id: 'sandbox_config',
      title: 'sandbox',
      async run() {
        let config;
        try {
          config = loadConfig(paths.config).config.sandbox;
        } catch {
          return { status: 'N/A', detail: 'config.toml is invalid (see the config row)', fix: '' };
        }
        const jail = await jailStatus({ enabled: config.jail.enabled, required: config.jail.required, limits: config.jail.limits });
        if (jail.active) {
          const limits = jail.limits;
          const unlimited = limits !== undefined && limits.processes === 'none';
          return { status: unlimited ? 'WARN' : 'OK', detail: `mode ${config.mode}; OS jail active: ${jail.reason} ${limits?.summary ?? ''}`.trim(), fix: unlimited ? 'Run the daemon as a normal user (RLIMIT_NPROC then applies), or give it a writable pids cgroup.' : '' };
        }
        // On Linux a missing jail is a failure unless the person turned it off on purpose: without it the
        // shell runs with the account's full rights. Elsewhere no jail exists yet, so it is a warning.
        const linux = process.platform === 'linux' && config.jail.enabled;
        return { status: config.jail.required || linux ? 'FAIL' : 'WARN', detail: `mode ${config.mode}; OS jail inactive: ${jail.reason} Shell commands run unjailed, with your account's full rights.`, fix: jail.fix };
      },
    },
    {
      id: 'secret_store',
      title: 'secret store',
      run() {
        let core;
        try {
          core = loadConfig(paths.config).config.fermix_core;
        } catch {
          return { status: 'N/A', detail: 'config.toml is invalid (see the config row)', fix: '' };
        }
        const store = createSecretStore({ kind: core.secret_store, profile: core.profile, fermixHome: paths.home });
        if (store.kind === 'file') {
          const file = secretFile(paths.home, core.profile);
          const loose = existsSync(file) && (statSync(file).mode & 0o077) !== 0;
          if (loose) return { status: 'FAIL', detail: `${file} is readable by other accounts`, fix: `chmod 600 ${file}` };
          return { status: 'WARN', detail: `secrets are in ${file} (0600): any program of your account can read them, unlike a keychain`, fix: 'When a keychain is available: `fermix secrets migrate --to keyring`.' };
        }
        try {
          // A read alone can succeed where a write is refused (a locked or read-only collection answers
          // AccessDenied only on set), so the probe writes, reads back and deletes an item of its own.
          const probe = `doctor-${process.pid}-${Date.now()}`;
          store.set('FERMIX_DOCTOR_PROBE', probe);
          const readBack = store.get('FERMIX_DOCTOR_PROBE');
          store.clear('FERMIX_DOCTOR_PROBE');
          if (readBack !== probe) return { status: 'WARN', detail: 'the OS keychain accepted a test item but gave back something else', fix: 'Restart the keychain service, or run `fermix secrets migrate --to file`.' };
          return { status: 'OK', detail: 'the OS keychain stores and returns a test item', fix: '' };
        } catch (error) {
          return { status: 'WARN', detail: isFermixError(error) ? error.message : String(error), fix: isFermixError(error) ? error.hint : 'Unlock your keychain, or run `fermix secrets migrate --to file`.' };
        }
      },
    },
    // `full` probes the fallbacks too (`fermix doctor --full`); by default only the primary.
    providersDoctorCheck(paths, { full: options.full }),
    browserDoctorCheck(),
    {
      id: 'recent_log_activity',
      title: 'log activity',
      run() {
        if (!existsSync(paths.logFile)) return { status: 'N/A', detail: 'no log file yet', fix: '' };
        const ageMinutes = (Date.now() - statSync(paths.logFile).mtimeMs) / 60_000;
        return { status: 'OK', detail: `last write ${ageMinutes < 1 ? 'under a minute' : `${Math.round(ageMinutes)} min`} ago`, fix: '' };
      },
    },
    computerUseDoctorCheck({ configFile: paths.config, ...options.computerUse }),
    // Inside the daemon the live states; from the CLI the running daemon's, or none when it is down.
    mcpDoctorCheck(async () => options.mcp?.() ?? (options.insideDaemon ? [] : ((await callDaemon(paths.socket, 'mcp.list').catch(() => ({ servers: [] }))) as { servers: ServerState[] }).servers)),
  ];
}
