import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { NATURAL, pinnedPlacements, withPlacement } from './cpu-placement.js';

/** The CPUs this process's main thread may run on, as the kernel reports them (e.g. "0-1"). */
function allowedCpus(): string {
  const line = readFileSync(`/proc/${process.pid}/status`, 'utf8').split('\n').find((entry) => entry.startsWith('Cpus_allowed_list:'));
  return line!.split(':')[1]!.trim();
}

describe.runIf(process.platform === 'linux')('cpu placement for the MCP call-path bench', () => {
  it('offers the same-core placement, and separate cores where there are two CPUs', () => {
    const keys = pinnedPlacements().map((placement) => placement.key);
    expect(keys).toEqual(availableParallelism() >= 2 ? ['same_core', 'separate_cores'] : ['same_core']);
  });

  it('pins the main thread only while the work runs, and gives its CPUs back after a failure too', async () => {
    const before = allowedCpus();
    const [sameCore] = pinnedPlacements();
    expect(await withPlacement(sameCore!, async () => allowedCpus())).toBe('0');
    expect(allowedCpus()).toBe(before);
    await expect(withPlacement(sameCore!, async () => {
      throw new Error('the round failed');
    })).rejects.toThrow('the round failed');
    expect(allowedCpus()).toBe(before);
    // The scheduler's placement pins nothing.
    expect(await withPlacement(NATURAL, async () => allowedCpus())).toBe(before);
  });
});
