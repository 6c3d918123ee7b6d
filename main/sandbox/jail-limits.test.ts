/**
 * `[sandbox.jail.limits]` for real: a fork bomb, a runaway allocation, a huge file and a CPU spin,
 * each run inside the bubblewrap jail and stopped by the limit, while the host keeps working.
 * The bomb runs from a script file, as a model would write one — the hardline cannot see inside it,
 * which is the point: the jail, not the hardline, is the boundary.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FermixError } from '../core/errors.js';
import { bwrapArgv, createJail, type Jail } from './jail.js';
import { detectLimitSupport, jailLimitsSchema, prlimitArgv } from './jail-limits.js';
import { createSandbox, type Sandbox } from './sandbox.js';
import { sandboxConfigSchema } from './sandbox-config.js';
import { makeSandboxDirs, type SandboxDirs } from './test-fixture.js';

const LIMITS = { max_processes: 64, max_open_files: 200, max_memory_mb: 256, max_file_size_mb: 1, max_cpu_seconds: 2 };
const CGROUP_PARENT = '/sys/fs/cgroup/pids/fermix';

let dirs: SandboxDirs;
let jail: Jail;
let sandbox: Sandbox;

beforeAll(async () => {
  dirs = makeSandboxDirs('fermix-limits-');
  const limits = jailLimitsSchema.parse(LIMITS);
  jail = await createJail({ enabled: true, limits });
  sandbox = createSandbox({
    config: sandboxConfigSchema.parse({ mode: 'standard', jail: { limits: LIMITS } }),
    home: dirs.home,
    fermixHome: dirs.fermixHome,
    daemonEnv: { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: dirs.home, LANG: 'C.UTF-8' },
    jail,
  });
});
afterAll(async () => {
  await sandbox?.shutdown();
  dirs?.cleanup();
});

/** Without a working jail and process limit the bomb would hit the whole machine: refuse to run it. */
function requireContainment(): void {
  expect(jail.status.active, `The OS jail cannot run here: ${jail.status.reason} Fix: ${jail.status.fix}`).toBe(true);
  expect(jail.status.limits?.processes, `No process limit on this machine: ${jail.status.limits?.summary}`).not.toBe('none');
}

async function run(command: string, timeout_ms = 10_000): Promise<{ output: string; exit: number | null; timedOut: boolean }> {
  try {
    const result = await sandbox.runShell({ command, timeout_ms });
    return { output: result.output, exit: result.exit_code, timedOut: false };
  } catch (error) {
    if (!(error instanceof FermixError) || error.data?.output === undefined) throw error;
    return { output: String(error.data.output), exit: (error.data.exit_code as number | null) ?? null, timedOut: error.code === 'timeout' };
  }
}

function activeCgroups(): string[] {
  if (!existsSync(CGROUP_PARENT)) return [];
  return readdirSync(CGROUP_PARENT).filter((name) => name.startsWith(`cmd-${process.pid}-`)).map((name) => path.join(CGROUP_PARENT, name));
}

describe('jail limits', () => {
  it('reports how each limit is enforced', () => {
    requireContainment();
    expect(jail.status.limits?.configured).toMatchObject(LIMITS);
    expect(jail.status.limits?.summary).toMatch(/at most 64 processes/);
  });

  it('contains a fork bomb: forks fail inside, the host still forks, nothing is left behind', async () => {
    requireContainment();
    writeFileSync(path.join(dirs.workspace, 'bomb.sh'), 'b() { b | b & }\nb\nsleep 3\n');
    const running = run('sh bomb.sh', 4_000);
    // While the bomb runs: the host can start processes, and the command's cgroup never exceeds its limit.
    const observed: Array<{ peak: number; refused: number }> = [];
    const hostForks: Array<number | null> = [];
    for (let i = 0; i < 10; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      hostForks.push(spawnSync('/bin/true').status);
      for (const dir of activeCgroups()) {
        try {
          observed.push({ peak: Number(readFileSync(path.join(dir, 'pids.peak'), 'utf8')), refused: Number(/max (\d+)/.exec(readFileSync(path.join(dir, 'pids.events'), 'utf8'))?.[1] ?? 0) });
        } catch {
          // the command ended between readdir and read
        }
      }
    }
    const result = await running;
    expect(hostForks.every((status) => status === 0), `host forks during the bomb: ${hostForks.join(',')}`).toBe(true);
    if (jail.status.limits?.processes === 'cgroup') {
      expect(observed.length).toBeGreaterThan(0);
      expect(Math.max(...observed.map((o) => o.peak))).toBeLessThanOrEqual(LIMITS.max_processes);
      expect(Math.max(...observed.map((o) => o.refused))).toBeGreaterThan(0);
    }
    expect(result.output).toMatch(/fork|Resource temporarily unavailable/i);
    // Everything the bomb started is gone with it, and so is its cgroup.
    // The killed tasks take a moment to exit; the cgroup goes as soon as they have (removeCgroup retries).
    const deadline = Date.now() + 8_000;
    while (activeCgroups().length > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(activeCgroups()).toEqual([]);
    expect(spawnSync('pgrep', ['-f', 'bomb.sh']).status).toBe(1);
  });

  it('caps open files, memory, file size and CPU time per process', async () => {
    requireContainment();
    expect((await run('ulimit -n')).output.trim()).toBe('200');
    const memory = await run(`python3 -c "x = bytearray(512 * 1024 * 1024); print('allocated')"`);
    expect(memory.output).toMatch(/MemoryError/);
    expect(memory.output).not.toMatch(/allocated/);
    const big = await run('head -c 3000000 /dev/zero > big.bin; echo "exit $?"');
    expect(statSync(path.join(dirs.workspace, 'big.bin')).size).toBeLessThanOrEqual(1024 * 1024);
    expect(big.output).not.toMatch(/exit 0/);
    const spin = await run('sh -c "while :; do :; done"; echo "spin ended with $?"', 15_000);
    expect(spin.timedOut).toBe(false);
    // 128 + SIGXCPU (24), or SIGKILL (9): soft and hard limit are equal, so the kernel kills at once.
    expect(spin.output).toMatch(/spin ended with (152|137)/);
  });

  it('limits the process count with RLIMIT_NPROC for a non-root account (per user namespace)', () => {
    requireContainment();
    const support = { ...detectLimitSupport(jailLimitsSchema.parse(LIMITS), { isRoot: false }), processes: 'rlimit' as const };
    expect(prlimitArgv(jailLimitsSchema.parse(LIMITS), support)).toContain('--nproc=64');
    const argv = bwrapArgv({ ...jail.status, limits: { ...support, configured: jailLimitsSchema.parse(LIMITS) } }, { writableRoots: [], hidden: [], readOnly: [] }, '/', [
      '/bin/sh', '-c', 'i=0; while [ $i -lt 100 ]; do sleep 2 & i=$((i+1)); done 2>&1 | tail -1; echo started $i',
    ]);
    // As root the kernel ignores RLIMIT_NPROC, so run the same argv as `nobody`, as a desktop user would.
    const asUser = process.getuid?.() === 0 ? ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups', ...argv] : argv;
    const result = spawnSync(asUser[0], asUser.slice(1), { encoding: 'utf8', timeout: 20_000 });
    expect(`${result.stdout}${result.stderr}`).toMatch(/Cannot fork|Resource temporarily unavailable/);
  });
});
