/**
 * The descriptor checks without a race: hand the helpers a path string that *passed* the gate in
 * the past but now leads elsewhere through a symlinked folder (what a swap does at the worst
 * moment), and they must refuse, because they decide on what the kernel really opened.
 */
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FermixError } from '../core/errors.js';
import { openForRead, writeFileAtomic } from '../tools/fs-atomic.js';
import { createPathPolicy } from './path-policy.js';
import { makeSandboxDirs } from './test-fixture.js';
import { FD_PATHS, type PathGate } from './verified-open.js';

const dirs = makeSandboxDirs('fermix-verified-open-');
afterAll(() => dirs.cleanup());
const gate: PathGate = { policy: createPathPolicy({ mode: 'standard', home: dirs.home, fermixHome: dirs.fermixHome, workspace: dirs.workspace }) };
const ws = (rel: string) => path.join(dirs.workspace, rel);
symlinkSync(path.join(dirs.home, '.ssh'), ws('ssh-link'));
symlinkSync(dirs.fermixHome, ws('fermix-link'));

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return error instanceof FermixError ? error.code : ((error as NodeJS.ErrnoException).code ?? String(error));
  }
  return 'no error';
}

function temps(dir: string): string[] {
  return readdirSync(dir, { recursive: true }).map(String).filter((n) => n.includes('.fermix-') && n.endsWith('.tmp'));
}

describe('verified open', () => {
  it('runs on descriptor paths here (Linux with /proc)', () => {
    expect(FD_PATHS, 'this suite covers the /proc/self/fd path; it needs Linux with /proc mounted').toBe(true);
  });

  it('refuses to read what a symlinked folder really leads to, and reads a plain file', async () => {
    expect(await codeOf(openForRead(ws('ssh-link/id_rsa'), gate))).toBe('sandbox_denied');
    const { handle, path: real } = await openForRead(ws('hello.txt'), gate);
    try {
      expect(real).toBe(ws('hello.txt'));
      expect((await handle.readFile()).toString()).toBe('hello\n');
    } finally {
      await handle.close();
    }
  });

  it('refuses a write whose folder really is a protected one, and leaves no temp file there', async () => {
    const before = readFileSync(path.join(dirs.fermixHome, 'logs', 'fermix.log'), 'utf8');
    expect(await codeOf(writeFileAtomic(ws('fermix-link/logs/fermix.log'), 'PWNED', gate))).toBe('sandbox_denied');
    // The last folder is never followed: a symlink there is refused by the open itself.
    expect(await codeOf(writeFileAtomic(ws('fermix-link/config.toml'), 'PWNED', gate))).toBe('ENOTDIR');
    expect(readFileSync(path.join(dirs.fermixHome, 'logs', 'fermix.log'), 'utf8')).toBe(before);
    expect(readFileSync(path.join(dirs.fermixHome, 'config.toml'), 'utf8')).not.toContain('PWNED');
    expect(temps(dirs.fermixHome)).toEqual([]);
  });

  it('creates missing folders one by one inside verified parents, never inside a protected one', async () => {
    await writeFileAtomic(ws('a/b/c.txt'), 'deep', gate, { mkdir: true });
    expect(readFileSync(ws('a/b/c.txt'), 'utf8')).toBe('deep');
    // The folder to create in really is $FERMIX_HOME/logs: refused before the mkdir.
    expect(await codeOf(writeFileAtomic(ws('fermix-link/logs/planted/x.log'), 'x', gate, { mkdir: true }))).toBe('sandbox_denied');
    expect(existsSync(path.join(dirs.fermixHome, 'logs', 'planted'))).toBe(false);
    // A symlink as the folder to create in is not followed at all.
    expect(await codeOf(writeFileAtomic(ws('ssh-link/planted/authorized_keys'), 'key', gate, { mkdir: true }))).toBe('ENOTDIR');
    expect(existsSync(path.join(dirs.home, '.ssh', 'planted'))).toBe(false);
    expect(await codeOf(writeFileAtomic(ws('missing/x.txt'), 'x', gate))).toBe('ENOENT');
  });

  it('replaces a file atomically, keeps its mode, and removes the temp file when a write fails', async () => {
    writeFileSync(ws('run.sh'), 'old');
    chmodSync(ws('run.sh'), 0o750);
    await writeFileAtomic(ws('run.sh'), 'new', gate);
    expect(readFileSync(ws('run.sh'), 'utf8')).toBe('new');
    expect(statSync(ws('run.sh')).mode & 0o7777).toBe(0o750);
    // Data that cannot be written fails after the temp file exists: it must not stay behind.
    mkdirSync(ws('fails'));
    expect(await codeOf(writeFileAtomic(ws('fails/x.txt'), 42 as unknown as string, gate))).not.toBe('no error');
    expect(readdirSync(ws('fails'))).toEqual([]);
    expect(temps(dirs.workspace)).toEqual([]);
  });
});
