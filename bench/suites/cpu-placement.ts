/**
 * Where the bench's own main thread and the servers it starts run, for figures that compare two
 * client→server round trips (bench/suites/mcp.ts). Left to the scheduler, each server process lands
 * in its own way and stays that way: two identical raw SDK clients, each with its own server, measured
 * 0.84–1.33× of each other from one pair of processes to the next on our 2-core machines. Fixing the
 * CPUs with taskset (util-linux) makes every process land alike: the same pairs then agree within 1–3%.
 * Only the main thread is pinned (the GC and libuv helpers keep every CPU, as in the daemon).
 */
import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';

export interface Placement {
  /** The figure's suffix and what the note says. */
  key: 'natural' | 'same_core' | 'separate_cores';
  describe: string;
  /** CPU list for the servers (taskset -c), or undefined for the scheduler's choice. */
  serverCpus?: string;
  /** CPU for this process's main thread, or undefined. */
  selfCpu?: string;
}

export const NATURAL: Placement = { key: 'natural', describe: "the scheduler's choice (nothing pinned)" };
const SAME_CORE: Placement = { key: 'same_core', describe: 'this thread and every server on CPU 0', serverCpus: '0', selfCpu: '0' };
const SEPARATE_CORES: Placement = { key: 'separate_cores', describe: 'this thread on CPU 0, every server on CPU 1', serverCpus: '1', selfCpu: '0' };

function tasksetWorks(): boolean {
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** The pinned placements this machine can take: none without taskset, only the same core with one CPU. */
export function pinnedPlacements(): Placement[] {
  if (process.platform !== 'linux' || !tasksetWorks()) return [];
  return availableParallelism() >= 2 ? [SAME_CORE, SEPARATE_CORES] : [SAME_CORE];
}

/** Pins this process's main thread for `work`, then gives it back the CPUs it had. */
export async function withPlacement<T>(placement: Placement, work: () => Promise<T>): Promise<T> {
  if (placement.selfCpu === undefined) return work();
  // "pid 123's current affinity mask: 3"
  const before = execFileSync('taskset', ['-p', String(process.pid)], { encoding: 'utf8' }).trim().split(': ').pop()!;
  execFileSync('taskset', ['-p', '-c', placement.selfCpu, String(process.pid)], { stdio: 'ignore' });
  try {
    return await work();
  } finally {
    execFileSync('taskset', ['-p', before, String(process.pid)], { stdio: 'ignore' });
  }
}
