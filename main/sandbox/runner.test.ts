import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { FermixError } from '../core/errors.js';
import { createRedactor } from './redactor.js';
import { commandFailure, createCommandRunner, type RunResult } from './runner.js';

const cwd = mkdtempSync(path.join(os.tmpdir(), 'fermix-runner-'));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));
const env = { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: cwd, LANG: 'C.UTF-8' };
const runner = createCommandRunner({ graceMs: 300 });
afterEach(() => expect(runner.activeCount).toBe(0));

/** Alive = exists and is not a zombie waiting for init to reap it. */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

async function waitGone(pid: number, ms = 3_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (!alive(pid)) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return !alive(pid);
}

function firstPid(result: RunResult): number {
  const pid = Number(/^(\d+)$/m.exec(result.output)?.[1]);
  expect(pid, `no pid in output ${JSON.stringify(result.output)}`).toBeGreaterThan(1);
  return pid;
}

describe('runCommand', () => {
  it('runs sh -c with stderr merged in write order', async () => {
    const result = await runner.runCommand({ command: 'echo out; echo err >&2; echo out2', cwd, env });
    expect(result).toMatchObject({ exit_code: 0, output: 'out\nerr\nout2\n', truncated: false, timed_out: false, jailed: false });
    expect(commandFailure(result)).toBeUndefined();
  });

  it('replaces the environment instead of inheriting the daemon one', async () => {
    process.env.FERMIX_RUNNER_TEST_SECRET = 'should-not-leak';
    const result = await runner.runCommand({ command: 'env', cwd, env });
    delete process.env.FERMIX_RUNNER_TEST_SECRET;
    expect(result.output).not.toContain('should-not-leak');
    expect(result.output).toContain(`HOME=${cwd}`);
  });

  it('tags a failing command exit_nonzero with the Fermix message', async () => {
    const result = await runner.runCommand({ command: 'echo boom; exit 3', cwd, env });
    const failure = commandFailure(result);
    expect(failure?.code).toBe('exit_nonzero');
    expect(failure?.message).toBe('Command failed (exit code 3):\nboom\n');
  });

  it('tags a missing program executable_not_found', async () => {
    const result = await runner.runCommand({ command: 'definitely-not-a-command-xyz --flag', cwd, env });
    const failure = commandFailure(result);
    expect(failure?.code).toBe('executable_not_found');
    expect(failure?.data).toMatchObject({ executable: 'definitely-not-a-command-xyz' });
  });

  it('on timeout kills the whole group, background grandchild included', async () => {
    const started = Date.now();
    const result = await runner.runCommand({ command: 'sleep 987.1 & echo $!; sleep 60', cwd, env, timeoutMs: 500 });
    expect(result.timed_out).toBe(true);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(commandFailure(result, 500)?.message).toBe('Command timed out after 500ms');
    expect(await waitGone(firstPid(result)), 'background sleep survived the timeout').toBe(true);
  });

  it('on normal exit kills leftover background children and does not wait for them', async () => {
    const started = Date.now();
    const result = await runner.runCommand({ command: 'sleep 987.2 & echo $!', cwd, env });
    expect(result.exit_code).toBe(0);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await waitGone(firstPid(result))).toBe(true);
  });

  it('escalates to SIGKILL when the group ignores SIGTERM', async () => {
    const result = await runner.runCommand({ command: "trap '' TERM; sh -c \"trap '' TERM; sleep 987.3\" & echo $!; wait", cwd, env, timeoutMs: 300 });
    expect(result.timed_out).toBe(true);
    expect(await waitGone(firstPid(result))).toBe(true);
  });

  it('stops on the abort signal', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const result = await runner.runCommand({ command: 'sleep 987.4 & echo $!; wait', cwd, env, signal: controller.signal });
    expect(result.aborted).toBe(true);
    expect(commandFailure(result)?.code).toBe('cancelled');
    expect(await waitGone(firstPid(result))).toBe(true);
  });

  it('caps the output and kills a command that keeps writing', async () => {
    const result = await runner.runCommand({ command: 'yes', cwd, env, maxOutputBytes: 1000, timeoutMs: 10_000 });
    expect(result.truncated).toBe(true);
    expect(result.timed_out).toBe(false);
    expect(Buffer.byteLength(result.output)).toBe(1000);
  });

  it('redacts before truncating, so a secret across the cut is not half-kept', async () => {
    const secret = 'sk-live-0123456789abcdef';
    const redact = createRedactor({ API_KEY: secret });
    const result = await runner.runCommand({
      command: `printf '%0990d' 0; printf '%s' "$API_KEY"; yes`,
      cwd,
      env: { ...env, API_KEY: secret },
      maxOutputBytes: 1000,
      redact,
    });
    expect(result.truncated).toBe(true);
    expect(result.output).not.toContain(secret.slice(0, 6));
    expect(result.output.slice(990)).toBe('[REDACTED:');
  });

  it('shutdownAll kills every running command and refuses new ones', async () => {
    const local = createCommandRunner({ graceMs: 300 });
    const runs = [1, 2].map((n) => local.runCommand({ command: `sleep 987.5${n} & echo $!; wait`, cwd, env }));
    await new Promise((r) => setTimeout(r, 200));
    expect(local.activeCount).toBe(2);
    await local.shutdownAll();
    const results = await Promise.all(runs);
    for (const result of results) {
      expect(result.aborted).toBe(true);
      expect(await waitGone(firstPid(result))).toBe(true);
    }
    await expect(local.runCommand({ command: 'true', cwd, env })).rejects.toMatchObject({ code: 'cancelled' });
  });

  it.each([[''], ['   '], ['echo a\0b']])('refuses %j as invalid_command', async (command) => {
    await expect(runner.runCommand({ command, cwd, env })).rejects.toMatchObject({ code: 'invalid_command' });
  });

  it('refuses a missing or non-folder working dir as invalid_working_dir', async () => {
    const file = path.join(cwd, 'a-file');
    writeFileSync(file, 'x');
    for (const dir of [path.join(cwd, 'missing'), file, 'relative/dir']) {
      const error = await runner.runCommand({ command: 'true', cwd: dir, env }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(FermixError);
      expect((error as FermixError).code).toBe('invalid_working_dir');
    }
    expect(existsSync(path.join(cwd, 'missing'))).toBe(false);
  });
});
