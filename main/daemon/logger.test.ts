import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { chmodSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from './logger.js';
import { FermixError } from '../core/errors.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'fermix-logger-'));
});
afterEach(() => {
  vi.restoreAllMocks();
  rmSync(root, { recursive: true, force: true });
});

const readLines = (file: string): Record<string, unknown>[] =>
  readFileSync(file, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);

describe('createLogger', () => {
  it('writes JSON lines with time, level, msg and fields, creating the directory 0700 and the file 0600', () => {
    const file = join(root, 'home', 'logs', 'fermix.log');
    const logger = createLogger({ file, level: 'info', now: () => new Date(Date.UTC(2024, 4, 1, 12)) });
    logger.info('daemon started', { port: 4030, host: '127.0.0.1' });
    logger.close();
    expect(readLines(file)).toEqual([
      { time: '2024-05-01T12:00:00.000Z', level: 'info', msg: 'daemon started', port: 4030, host: '127.0.0.1' },
    ]);
    if (process.platform !== 'win32') {
      expect(statSync(join(root, 'home', 'logs')).mode & 0o777).toBe(0o700);
      expect(statSync(file).mode & 0o777).toBe(0o600);
    }
  });

  it('tightens the mode of an existing log file and appends to it', () => {
    const file = join(root, 'fermix.log');
    writeFileSync(file, '{"msg":"old"}\n', { mode: 0o644 });
    chmodSync(file, 0o644);
    const logger = createLogger({ file });
    logger.warn('new');
    logger.close();
    expect(readLines(file).map((line) => line.msg)).toEqual(['old', 'new']);
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('filters by level', () => {
    const file = join(root, 'fermix.log');
    const logger = createLogger({ file, level: 'warn' });
    logger.debug('d');
    logger.info('i');
    logger.warn('w');
    logger.error('e');
    logger.close();
    expect(readLines(file).map((line) => [line.level, line.msg])).toEqual([['warn', 'w'], ['error', 'e']]);

    const debugFile = join(root, 'debug.log');
    const verbose = createLogger({ file: debugFile, level: 'debug' });
    verbose.debug('d');
    verbose.close();
    expect(readLines(debugFile).map((line) => line.level)).toEqual(['debug']);
  });

  it('redacts secrets in the message, in field values and in secret-named fields', () => {
    const file = join(root, 'fermix.log');
    const key = 'sk-' + 'Ab3'.repeat(16);
    const logger = createLogger({ file });
    logger.error(`provider rejected ${key}`, {
      headers: { authorization: `Bearer ${key}` },
      url: `https://api.example.com/?token=ghp_${'x1Y2'.repeat(9)}`,
      password: 'hunter2',
      max_tokens: 1024,
      err: new Error(`bad key ${key}`),
    });
    logger.close();
    const raw = readFileSync(file, 'utf8');
    expect(raw).not.toContain(key);
    expect(raw).not.toContain('hunter2');
    expect(raw).not.toContain('x1Y2x1Y2');
    const [line] = readLines(file);
    expect(line.msg).toBe('provider rejected [REDACTED:api_key]');
    expect(line.headers).toEqual({ authorization: '[REDACTED:field]' });
    expect(line.url).toBe('https://api.example.com/?token=[REDACTED:github_token]');
    expect(line.password).toBe('[REDACTED:field]');
    expect(line.max_tokens).toBe(1024);
    expect((line.err as Record<string, unknown>).message).toBe('bad key [REDACTED:api_key]');
  });

  it('child loggers add their fields, and fields cannot overwrite time, level or msg', () => {
    const file = join(root, 'fermix.log');
    const logger = createLogger({ file });
    const child = logger.child({ component: 'mcp' }).child({ server: 'github' });
    child.info('connected', { tools: 12 });
    child.info('odd', { msg: 'spoof', level: 'error' });
    logger.close();
    const lines = readLines(file);
    expect(lines[0]).toMatchObject({ level: 'info', msg: 'connected', component: 'mcp', server: 'github', tools: 12 });
    expect(lines[1]).toMatchObject({ level: 'info', msg: 'odd', _msg: 'spoof', _level: 'error' });
  });

  it('rotates before exceeding maxBytes, keeping exactly maxFiles old files and the newest lines', () => {
    const file = join(root, 'fermix.log');
    const maxBytes = 300;
    const logger = createLogger({ file, maxBytes, maxFiles: 5, now: () => new Date(0) });
    const total = 200;
    for (let index = 0; index < total; index++) logger.info(`line ${index}`, { index });
    logger.close();

    expect(readdirSync(root).sort()).toEqual(['fermix.log', 'fermix.log.1', 'fermix.log.2', 'fermix.log.3', 'fermix.log.4', 'fermix.log.5']);
    const ordered = [5, 4, 3, 2, 1].map((n) => `${file}.${n}`).concat(file);
    const indexes: number[] = [];
    for (const path of ordered) {
      expect(statSync(path).size).toBeLessThanOrEqual(maxBytes);
      for (const line of readLines(path)) indexes.push(line.index as number);
    }
    // Contiguous and ending at the newest line: nothing lost inside the kept window, oldest files deleted.
    expect(indexes[indexes.length - 1]).toBe(total - 1);
    expect(indexes).toEqual(indexes.map((_, i) => indexes[0] + i));
    expect(indexes[0]).toBeGreaterThan(0);
  });

  it('writes a line larger than maxBytes alone in a fresh file', () => {
    const file = join(root, 'fermix.log');
    const logger = createLogger({ file, maxBytes: 100, maxFiles: 2 });
    logger.info('small');
    logger.info('x'.repeat(500));
    logger.info('after');
    logger.close();
    expect(readLines(`${file}.2`).map((line) => line.msg)).toEqual(['small']);
    expect(readLines(`${file}.1`).map((line) => (line.msg as string).length)).toEqual([500]);
    expect(readLines(file).map((line) => line.msg)).toEqual(['after']);
  });

  it('mirrors lines to stderr in verbose mode only', () => {
    const written: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    const quiet = createLogger({ file: join(root, 'quiet.log') });
    quiet.info('not mirrored');
    quiet.close();
    const verbose = createLogger({ file: join(root, 'verbose.log'), stderr: true });
    verbose.info('mirrored', { password: 'hunter2' });
    verbose.close();
    verbose.info('after close');
    expect(written).toHaveLength(1);
    expect(JSON.parse(written[0])).toMatchObject({ msg: 'mirrored', password: '[REDACTED:field]' });
    expect(existsSync(join(root, 'verbose.log'))).toBe(true);
  });

  it('refuses an unwritable location with log_unwritable and a hint', () => {
    const blocker = join(root, 'not-a-dir');
    writeFileSync(blocker, '');
    let caught: unknown;
    try {
      createLogger({ file: join(blocker, 'fermix.log') });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(FermixError);
    expect((caught as FermixError).code).toBe('log_unwritable');
    expect((caught as FermixError).hint).toContain('chmod 700');
  });
});
