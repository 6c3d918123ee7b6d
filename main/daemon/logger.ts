/**
 * The daemon's log: JSON lines in `$FERMIX_HOME/logs/fermix.log`, secrets redacted, rotated by size
 * (10 MB, 5 old files: Fermix's observability reference).
 *
 * Writes are synchronous on purpose: the volume is low, and a line written just before a crash must be
 * on disk (in the kernel) when someone runs `fermix logs` to find out why.
 */
import { closeSync, fchmodSync, fstatSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { FermixError } from '../core/errors.js';
import { redactSecrets, redactValue } from '../core/redaction.js';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type LogFields = Record<string, unknown>;

export interface LoggerOptions {
  file: string;
  level?: LogLevel;
  maxBytes?: number;
  maxFiles?: number;
  /** Verbose mode: mirror every written line to stderr as well. */
  stderr?: boolean;
  now?: () => Date;
}

export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  /** A logger that adds `fields` to every line; it shares the file, level and rotation with its parent. */
  child(fields: LogFields): Logger;
  close(): void;
}

const LEVEL_RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };
const RESERVED_KEYS = new Set(['time', 'level', 'msg']);

interface Sink {
  write(line: string): void;
  close(): void;
}

export function createLogger(options: LoggerOptions): Logger {
  const threshold = LEVEL_RANK[options.level ?? 'info'];
  const now = options.now ?? (() => new Date());
  const sink = openRotatingFile(options.file, options.maxBytes ?? 10 * 1024 * 1024, options.maxFiles ?? 5, options.stderr ?? false);

  const make = (bound: LogFields): Logger => {
    const log = (level: LogLevel, msg: string, fields?: LogFields): void => {
      if (LEVEL_RANK[level] < threshold) return;
      sink.write(formatLine(now(), level, msg, fields === undefined ? bound : { ...bound, ...fields }));
    };
    return {
      debug: (msg, fields) => log('debug', msg, fields),
      info: (msg, fields) => log('info', msg, fields),
      warn: (msg, fields) => log('warn', msg, fields),
      error: (msg, fields) => log('error', msg, fields),
      child: (fields) => make({ ...bound, ...fields }),
      close: () => sink.close(),
    };
  };
  return make({});
}

function formatLine(time: Date, level: LogLevel, msg: string, fields: LogFields): string {
  const record: Record<string, unknown> = { time: time.toISOString(), level, msg: redactSecrets(msg) };
  const safeFields = redactValue(fields) as Record<string, unknown>;
  // A field may not overwrite time/level/msg, which every reader of the log relies on.
  for (const [key, value] of Object.entries(safeFields)) record[RESERVED_KEYS.has(key) ? `_${key}` : key] = value;
  return JSON.stringify(record) + '\n';
}

function openRotatingFile(file: string, maxBytes: number, maxFiles: number, mirrorToStderr: boolean): Sink {
  const open = (): number => {
    // 0700/0600: log lines name files, hosts and commands of the user even after secrets are redacted.
    const fd = openSync(file, 'a', 0o600);
    // An existing file keeps its old mode on open; tighten it (a no-op on Windows).
    fchmodSync(fd, 0o600);
    return fd;
  };
  try {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  } catch (error) {
    throw unwritable(file, error);
  }
  // undefined after a failed rotation: a closed descriptor number may be reused by another open file,
  // so it must never be written to again.
  let fd: number | undefined;
  let size = 0;
  const reopen = (): number => {
    fd = open();
    size = fstatSync(fd).size;
    return fd;
  };
  try {
    reopen();
  } catch (error) {
    throw unwritable(file, error);
  }
  let closed = false;
  let reportedFailure = false;

  const rotate = (current: number): void => {
    fd = undefined;
    closeSync(current);
    rmSync(`${file}.${maxFiles}`, { force: true });
    for (let index = maxFiles - 1; index >= 1; index--) renameIfPresent(`${file}.${index}`, `${file}.${index + 1}`);
    if (maxFiles > 0) renameSync(file, `${file}.1`);
    else rmSync(file, { force: true });
  };

  return {
    write(line) {
      if (closed) return;
      if (mirrorToStderr) process.stderr.write(line);
      const bytes = Buffer.byteLength(line);
      try {
        // A single line larger than maxBytes still gets written, alone in a fresh file.
        if (fd !== undefined && size > 0 && size + bytes > maxBytes) rotate(fd);
        writeSync(fd ?? reopen(), line);
        size += bytes;
      } catch (error) {
        // A full disk must not take the daemon down with it; say so once, where someone may see it.
        if (!reportedFailure) {
          reportedFailure = true;
          process.stderr.write(`fermix: cannot write the log file ${file}: ${String(error)}\n`);
        }
      }
    },
    close() {
      if (closed) return;
      closed = true;
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
    },
  };
}

function unwritable(file: string, cause: unknown): FermixError {
  return new FermixError({
    code: 'log_unwritable',
    message: `The log file ${file} cannot be opened for writing.`,
    hint: `Make ${dirname(file)} writable by you (chmod 700 ${dirname(file)}), or set FERMIX_HOME to a writable directory.`,
    data: { file },
    cause,
  });
}

function renameIfPresent(from: string, to: string): void {
  try {
    renameSync(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
