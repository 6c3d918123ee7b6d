import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, tempHome, waitFor } from './support/daemon-process.js';

/**
 * bin/fermix.cjs runs `fermix daemon` from out/node/daemon.cjs with a V8 code cache (docs/decisions/0027).
 * Other engineers rebuild out/node/ while tests run, so these tests use a private copy of bin/ and
 * out/node/ inside the checkout (node_modules and package.json resolve from the parent folders).
 */
const copy = mkdtempSync(join(ROOT, 'out', 'code-cache-test-'));
const outDir = join(copy, 'out', 'node');
const bin = join(copy, 'bin', 'fermix.cjs');
const caches = () => readdirSync(outDir).filter((name) => name.endsWith('.v8cache'));
const expectedCache = () => {
  const stat = statSync(join(outDir, 'daemon.cjs'));
  return `daemon-${stat.size}-${Math.trunc(stat.mtimeMs)}.v8cache`;
};

/** Starts the copy's daemon, waits for its URL line and then for `until`, and stops it with SIGTERM. */
async function runDaemon(until: () => boolean = () => true, what = 'condition', entry = bin): Promise<{ stdout: string; stderr: string; code: number | null }> {
  const home = tempHome('fermix-code-cache-');
  const child = spawn(process.execPath, [entry, 'daemon', '--port', '0'], { env: { ...process.env, FERMIX_HOME: home }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const closed = new Promise<number | null>((resolveClose) => child.once('close', (code) => resolveClose(code)));
  try {
    await waitFor(() => stdout.includes('Open in a browser: http://127.0.0.1:') || child.exitCode !== null, 30_000, 'the daemon URL');
    expect(stdout, stderr).toContain('Open in a browser');
    // The cache is written once the daemon is ready; generous for a loaded machine.
    await waitFor(until, 30_000, what);
  } finally {
    child.kill('SIGTERM');
  }
  const code = await closed;
  rmSync(home, { recursive: true, force: true });
  return { stdout, stderr, code };
}

describe('fermix daemon from the CommonJS bundle with a V8 code cache', () => {
  beforeAll(() => {
    mkdirSync(join(copy, 'bin'));
    mkdirSync(outDir, { recursive: true });
    for (const name of ['fermix.cjs', 'fermix.mjs']) copyFileSync(join(ROOT, 'bin', name), join(copy, 'bin', name));
    for (const name of ['cli.mjs', 'daemon.cjs']) copyFileSync(join(ROOT, 'out', 'node', name), join(outDir, name));
    symlinkSync(join(ROOT, 'out', 'node', 'chunks'), join(outDir, 'chunks'));
  });
  afterAll(() => rmSync(copy, { recursive: true, force: true }));

  it('writes a cache named after the bundle once the daemon has run, and starts again with it', async () => {
    expect(caches()).toEqual([]);
    expect((await runDaemon(() => caches().length > 0, 'the code cache file')).code).toBe(0);
    expect(caches()).toEqual([expectedCache()]);
    const written = statSync(join(outDir, expectedCache())).mtimeMs;
    const second = await runDaemon();
    expect(second.code).toBe(0);
    expect(second.stderr).not.toContain('could not be loaded');
    // V8 accepted it: a rejected cache is rewritten the moment the daemon is ready (before it could stop).
    // It is accepted only under the V8 flags it was written with, so this fails if the flags that
    // bin/fermix.cjs changes once the daemon is ready were changed before the cache was written.
    expect(statSync(join(outDir, expectedCache())).mtimeMs).toBe(written);
  });

  it('starts the same way from bin/fermix.mjs, which loads bin/fermix.cjs (and uses the same cache)', async () => {
    const written = statSync(join(outDir, expectedCache())).mtimeMs;
    const run = await runDaemon(() => true, 'the daemon', join(copy, 'bin', 'fermix.mjs'));
    expect(run.code).toBe(0);
    expect(run.stderr).not.toContain('could not be loaded');
    expect(statSync(join(outDir, expectedCache())).mtimeMs).toBe(written);
  });

  it('replaces a cache V8 rejects (another Node version, flags, or a corrupt file) with a good one', async () => {
    const name = expectedCache();
    writeFileSync(join(outDir, name), Buffer.alloc(4096, 7));
    const run = await runDaemon(() => statSync(join(outDir, name)).size !== 4096, 'the rewritten cache');
    expect(run.code).toBe(0);
    expect(caches()).toEqual([name]);
  });

  it('removes a stale cache (of an earlier build of the bundle) when it writes the current one', async () => {
    rmSync(join(outDir, expectedCache()));
    writeFileSync(join(outDir, 'daemon-1-1.v8cache'), 'old');
    await runDaemon(() => !caches().includes('daemon-1-1.v8cache'), 'the stale cache to go');
    expect(caches()).toEqual([expectedCache()]);
  });

  it('falls back to the ESM bundle when daemon.cjs cannot be evaluated, and when it is missing', async () => {
    writeFileSync(join(outDir, 'daemon.cjs'), "throw new Error('broken bundle');");
    const broken = await runDaemon();
    expect(broken.code).toBe(0);
    expect(broken.stderr).toContain('the daemon bundle could not be loaded (broken bundle); starting from the ESM bundle.');
    // A bundle of an older build, not inside its function wrapper (its top level expects module and require).
    writeFileSync(join(outDir, 'daemon.cjs'), 'void 0;');
    const unwrapped = await runDaemon();
    expect(unwrapped.code).toBe(0);
    expect(unwrapped.stderr).toContain('out/node/daemon.cjs is from an older build; run `npm run build`');
    rmSync(join(outDir, 'daemon.cjs'));
    const missing = await runDaemon();
    expect(missing.code).toBe(0);
    expect(missing.stderr).not.toContain('could not be loaded');
  });
});
