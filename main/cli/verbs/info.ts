import { existsSync, readFileSync } from 'node:fs';
import type { HomePaths } from '../../config/home.js';
import { loadConfig } from '../../config/config-file.js';
import { baseDoctorChecks } from '../../daemon/doctor-checks.js';
import { createDoctor, doctorExitCode, formatDoctorRows } from '../../daemon/doctor.js';
import { followFile, readLastLines } from '../../daemon/log-tail.js';
import { callDaemon } from '../control-client.js';
import { cliPluginsDoctorCheck } from '../plugins-doctor-row.js';
import { EXIT, UsageError, type CliIo } from '../output.js';
import { localizeHint } from '../invocation.js';
import { formatLogLine } from '../log-format.js';

export async function statusVerb(io: CliIo, paths: HomePaths, json: boolean): Promise<number> {
  const status = (await callDaemon(paths.socket, 'system.status')) as Record<string, unknown>;
  const info = existsSync(paths.runtimeInfo) ? (JSON.parse(readFileSync(paths.runtimeInfo, 'utf8')) as { url?: string }) : {};
  if (json) {
    io.out(JSON.stringify({ schema_version: 1, ok: true, result: { running: true, ...status, url: info.url ?? null } }));
  } else {
    io.out(`Fermix daemon running — pid ${status.pid}, version ${status.version}, up ${status.uptime_s}s`);
    io.out(`home:   ${status.home}`);
    io.out(`socket: ${status.socket}`);
    if (info.url) io.out(`window: ${info.url}`);
  }
  return EXIT.ok;
}

export async function healthVerb(io: CliIo, paths: HomePaths, json: boolean): Promise<number> {
  const health = (await callDaemon(paths.socket, 'system.health')) as { live: boolean; ready: boolean; not_ready: { component: string; reason: string }[] };
  if (json) io.out(JSON.stringify({ schema_version: 1, ok: true, result: health }));
  else io.out(health.ready ? 'live, ready' : `live, not ready: ${health.not_ready.map((entry) => `${entry.component} (${entry.reason})`).join(', ')}`);
  return health.ready ? EXIT.ok : EXIT.failure;
}

export async function doctorVerb(io: CliIo, paths: HomePaths, json: boolean, full = false): Promise<number> {
  const doctor = createDoctor();
  for (const check of baseDoctorChecks(paths, { insideDaemon: false, full })) doctor.register(check);
  doctor.register(cliPluginsDoctorCheck(paths));
  const rows = (await doctor.run()).map((row) => ({ ...row, fix: localizeHint(row.fix) }));
  io.out(json ? JSON.stringify({ schema_version: 1, ok: true, result: { checks: rows } }) : formatDoctorRows(rows));
  return doctorExitCode(rows);
}

export function configVerb(io: CliIo, paths: HomePaths, sub: string | undefined, json: boolean): number {
  if (sub === 'path') {
    io.out(json ? JSON.stringify({ schema_version: 1, ok: true, result: { path: paths.config } }) : paths.config);
    return EXIT.ok;
  }
  if (sub === 'validate') {
    const loaded = loadConfig(paths.config); // throws a FermixError naming file, line and key
    io.out(json ? JSON.stringify({ schema_version: 1, ok: true, result: { path: paths.config, exists: loaded.exists } }) : `${paths.config}: ${loaded.exists ? 'valid' : 'does not exist (all defaults apply)'}`);
    return EXIT.ok;
  }
  throw new UsageError('usage: fermix config path|validate');
}

/** Readable lines by default (time, level, message, fields); `--json` prints the file's raw JSON lines. */
export async function logsVerb(io: CliIo, paths: HomePaths, lines: number, follow: boolean, json = false): Promise<number> {
  if (!Number.isInteger(lines) || lines < 0) throw new UsageError('-n takes a whole number of lines');
  const print = (line: string) => io.out(json ? line : formatLogLine(line));
  for (const line of await readLastLines(paths.logFile, lines)) print(line);
  if (!follow) return EXIT.ok;
  const controller = new AbortController();
  process.once('SIGINT', () => controller.abort());
  process.once('SIGTERM', () => controller.abort());
  await followFile(paths.logFile, print, controller.signal);
  return EXIT.ok;
}


