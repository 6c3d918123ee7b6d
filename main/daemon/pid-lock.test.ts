import { afterEach, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { acquirePidLock, isProcessAlive, isProcessRunning, lockHolderAlive } from './pid-lock.js';

const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

/** A live process that is not a Fermix daemon (its command line names no fermix). */
function sleeper(): Promise<number> {
  const child = spawn('sleep', ['30'], { stdio: 'ignore' });
  started.push(child);
  return new Promise((resolve, reject) => {
    child.once('spawn', () => resolve(child.pid!));
    child.once('error', reject);
  });
}

const startTimeOf = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
};
const pidFile = () => join(mkdtempSync(join(tmpdir(), 'fermix-pid-')), 'daemon.pid');
const linux = existsSync('/proc/self/stat');

describe('pid lock', () => {
  it('records pid and start time, and releases', () => {
    const file = pidFile();
    const lock = acquirePidLock(file);
    const [pid, startTime] = readFileSync(file, 'utf8').trim().split('\n');
    expect(Number(pid)).toBe(process.pid);
    if (linux) expect(startTime).toBe(startTimeOf(process.pid));
    lock.release();
    expect(existsSync(file)).toBe(false);
  });

  it('takes over a pid file whose process is gone', async () => {
    const file = pidFile();
    const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
    const pid = child.pid!;
    await new Promise((resolve) => child.once('exit', resolve));
    writeFileSync(file, `${pid}\n`);
    acquirePidLock(file).release();
  });

  it.runIf(linux)('takes over a live pid that is not the recorded holder (reused pid) or not Fermix at all', async () => {
    const pid = await sleeper();
    const file = pidFile();
    // Old-format file (no start time) naming a live non-Fermix process.
    writeFileSync(file, `${pid}\n`);
    expect(lockHolderAlive(file)).toBeUndefined();
    // The pid is alive but started at another time than the daemon that wrote the file.
    writeFileSync(file, `${pid}\n1\n`);
    expect(lockHolderAlive(file)).toBeUndefined();
    const lock = acquirePidLock(file);
    expect(Number(readFileSync(file, 'utf8').split('\n')[0])).toBe(process.pid);
    lock.release();
  });

  it.runIf(linux)('refuses while the recorded holder is still running', async () => {
    const pid = await sleeper();
    const file = pidFile();
    writeFileSync(file, `${pid}\n${startTimeOf(pid)}\n`);
    expect(() => acquirePidLock(file)).toThrow(expect.objectContaining({ code: 'daemon_already_running', data: { pid } }));
    expect(readFileSync(file, 'utf8').startsWith(`${pid}\n`)).toBe(true);
  });

  it.runIf(linux)('treats a zombie (killed, not yet reaped) as dead', async () => {
    // `sh` starts a sleeper in the background, then becomes `sleep` itself, which never reaps it.
    const parent = spawn('sh', ['-c', 'sleep 30 & echo $!; exec sleep 30'], { stdio: ['ignore', 'pipe', 'ignore'] });
    started.push(parent);
    const pid = Number(await new Promise<string>((resolve) => parent.stdout!.once('data', (chunk) => resolve(String(chunk)))));
    expect(isProcessRunning(pid)).toBe(true);
    // Killed only once `sh` has become `sleep`: a shell that has not exec'd yet reaps its own background
    // job, and the zombie is gone before it can be looked at (seen once under CI load).
    for (let attempt = 0; attempt < 250 && readFileSync(`/proc/${parent.pid}/comm`, 'utf8').trim() !== 'sleep'; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(readFileSync(`/proc/${parent.pid}/comm`, 'utf8').trim()).toBe('sleep');
    process.kill(pid, 'SIGKILL');
    for (let attempt = 0; attempt < 100 && !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z '); attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(readFileSync(`/proc/${pid}/stat`, 'utf8')).toContain(') Z ');
    expect(isProcessAlive(pid)).toBe(true); // still in the process table
    expect(isProcessRunning(pid)).toBe(false);
    const file = pidFile();
    writeFileSync(file, `${pid}\n${startTimeOf(pid)}\n`);
    acquirePidLock(file).release();
  });
});
