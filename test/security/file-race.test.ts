/**
 * The symlink-swap race against the file tools (hardening issue, item 2). A child process renames
 * `race` back and forth between a real folder and a symlink to a protected folder while file_read
 * and file_write aim at `race/…` through the real executors. The gate checks a path string and the
 * kernel opens whatever is there a moment later, so without descriptor verification some calls
 * win (the attack measured 71 of 644 reads). Here: 0 wins, no temp files left anywhere.
 *
 * Jail on and off: the file tools run in the daemon, not in the jail, so their checks are the same
 * either way. What the jail changes is the attacker: with it, the swapper runs the way a model
 * would run it, through the shell tool inside bubblewrap (a symlink is only text, so the jail does
 * not stop it from pointing at ~/.ssh). Both variants must show 0 wins.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ExecutionContext } from '../../main/core/capabilities/capability.js';
import { createJail, createSandbox, sandboxConfigSchema, type Sandbox } from '../../main/sandbox/index.js';
import { makeSandboxDirs, type SandboxDirs } from '../../main/sandbox/test-fixture.js';
import { fileEdit } from '../../main/tools/file-edit.js';
import { fileRead } from '../../main/tools/file-read.js';
import { fileWrite } from '../../main/tools/file-write.js';
import { run } from '../../main/tools/tool-test-fixture.js';

const READS = 2000;
const WRITES = 2000;
/** file_edit shares the write path; a few hundred aim at turning the sandbox `open` in config.toml. */
const EDITS = 400;
const PARALLEL = 8;
const MARKER = 'PRIVATE-KEY-DO-NOT-LEAK';

/**
 * Renames `<name>.dir` → `<name>`, back, `<name>.link` → `<name>`, back, for each name, until the
 * stop file appears; prints how many times a symlink was put in place. Sync calls: as fast as it gets.
 */
const SWAPPER = `
const fs = require('node:fs');
const [dir, stop, ...names] = process.argv.slice(2);
process.chdir(dir);
const swaps = Object.fromEntries(names.map((n) => [n, 0]));
const end = Date.now() + 60000;
for (let i = 0; ; i++) {
  if (i % 64 === 0 && (fs.existsSync(stop) || Date.now() > end)) break;
  for (const n of names) {
    try { fs.renameSync(n + '.dir', n); fs.renameSync(n, n + '.dir'); } catch (e) {
      // file_write's mkdir made a real folder in the gap: move it aside so the swapping goes on.
      if (e.code === 'ENOTEMPTY' || e.code === 'EEXIST' || e.code === 'EISDIR') try { fs.renameSync(n, n + '.stray' + i); } catch {}
    }
    try { fs.renameSync(n + '.link', n); swaps[n]++; fs.renameSync(n, n + '.link'); } catch {}
  }
}
console.log('SWAPS=' + JSON.stringify(swaps));
`;

interface Setup {
  dirs: SandboxDirs;
  sandbox: Sandbox;
  context: () => ExecutionContext;
  protectedBefore: Map<string, string>;
}

const setups: Setup[] = [];
afterAll(async () => {
  for (const s of setups) {
    await s.sandbox.shutdown();
    s.dirs.cleanup();
  }
});

async function makeSetup(jailed: boolean): Promise<Setup> {
  const dirs = makeSandboxDirs(`fermix-race-${jailed ? 'jail' : 'nojail'}-`);
  const jail = jailed ? await createJail({ enabled: true }) : undefined;
  if (jail) expect(jail.status.active, `The OS jail cannot run here: ${jail.status.reason} Fix: ${jail.status.fix}`).toBe(true);
  const sandbox = createSandbox({
    config: sandboxConfigSchema.parse({}),
    home: dirs.home,
    fermixHome: dirs.fermixHome,
    daemonEnv: { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: dirs.home, LANG: 'C.UTF-8' },
    jail,
  });
  const ws = dirs.workspace;
  // `race` (reads) alternates with a link to ~/.ssh; `wrace` (writes) with a link to $FERMIX_HOME.
  mkdirSync(path.join(ws, 'race.dir'));
  writeFileSync(path.join(ws, 'race.dir', 'id_rsa'), 'benign copy\n');
  symlinkSync(path.join(dirs.home, '.ssh'), path.join(ws, 'race.link'));
  mkdirSync(path.join(ws, 'wrace.dir', 'logs'), { recursive: true });
  writeFileSync(path.join(ws, 'wrace.dir', 'config.toml'), 'benign\nmode = "standard"\n');
  writeFileSync(path.join(ws, 'wrace.dir', 'logs', 'fermix.log'), 'benign\n');
  symlinkSync(dirs.fermixHome, path.join(ws, 'wrace.link'));
  const protectedBefore = new Map<string, string>();
  for (const p of [path.join(dirs.fermixHome, 'config.toml'), path.join(dirs.fermixHome, 'logs', 'fermix.log'), path.join(dirs.home, '.ssh', 'id_rsa')]) {
    protectedBefore.set(p, readFileSync(p, 'utf8'));
  }
  const context = (): ExecutionContext => ({ trust: 'operator', origin: 'chat', conversationId: 'race', signal: new AbortController().signal, services: { sandbox } });
  const setup = { dirs, sandbox, context, protectedBefore };
  setups.push(setup);
  return setup;
}

/** Starts the swapper (directly, or through the jailed shell) and returns a stop function that yields its swap count. */
function startSwapper(s: Setup, jailed: boolean): () => Promise<Record<string, number>> {
  const ws = s.dirs.workspace;
  const script = path.join(ws, 'swapper.cjs');
  writeFileSync(script, SWAPPER);
  const stopFile = path.join(ws, 'swapper.stop');
  const argv = [script, ws, stopFile, 'race', 'wrace'];
  let output: Promise<string>;
  if (jailed) {
    output = s.sandbox.runShell({ command: [process.execPath, ...argv].map((a) => `'${a}'`).join(' '), timeout_ms: 90_000 }).then((r) => {
      expect(r.jailed).toBe(true);
      return r.output;
    });
  } else {
    const child = spawn(process.execPath, argv, { stdio: ['ignore', 'pipe', 'inherit'] });
    output = new Promise((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.on('error', reject);
      child.on('close', () => resolve(out));
    });
  }
  output.catch(() => undefined); // reported by stop(), not as an unhandled rejection
  return async () => {
    writeFileSync(stopFile, '');
    const out = await output;
    const json = /SWAPS=(\{.*\})/.exec(out)?.[1];
    expect(json, `swapper output: ${out}`).toBeDefined();
    return JSON.parse(json as string) as Record<string, number>;
  };
}

async function inBatches(total: number, call: (i: number) => Promise<void>): Promise<void> {
  for (let i = 0; i < total; i += PARALLEL) {
    await Promise.all(Array.from({ length: Math.min(PARALLEL, total - i) }, (_, k) => call(i + k)));
  }
}

function filesUnder(root: string): string[] {
  return readdirSync(root, { withFileTypes: true, recursive: true }).filter((e) => e.isFile()).map((e) => path.join(e.parentPath ?? e.path, e.name));
}

function tempFilesUnder(root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.name.includes('.fermix-') && e.name.endsWith('.tmp')) found.push(p);
      if (e.isDirectory()) walk(p);
    }
  };
  walk(root);
  return found;
}

async function race(jailed: boolean) {
  const s = await makeSetup(jailed);
  const stop = startSwapper(s, jailed);
  // Let the swapper get going before the first call (the jail takes a moment to start).
  const t0 = Date.now();
  while (!existsSync(path.join(s.dirs.workspace, 'race')) && Date.now() - t0 < 5000) await new Promise((r) => setTimeout(r, 5));
  let readWins = 0;
  let readsOk = 0;
  let writesOk = 0;
  let editsOk = 0;
  const errors = new Map<string, number>();
  const note = (e: unknown) => {
    const code = (e as { code?: string }).code ?? String(e);
    errors.set(code, (errors.get(code) ?? 0) + 1);
    if (!(e as { hint?: string }).hint && process.env.RACE_DEBUG) console.log((e as Error).stack);
  };
  let swaps: Record<string, number>;
  try {
    await inBatches(READS, async () => {
      try {
        const r = await run(fileRead.executor, { path: 'race/id_rsa' }, s.context());
        readsOk += 1;
        if (r.text.includes(MARKER)) readWins += 1;
      } catch (e) {
        note(e);
      }
    });
    await inBatches(WRITES, async (i) => {
      const target = i % 2 === 0 ? 'wrace/config.toml' : 'wrace/logs/fermix.log';
      try {
        await run(fileWrite.executor, { path: target, content: `PWNED ${i}\n` }, s.context());
        writesOk += 1;
      } catch (e) {
        note(e);
      }
    });
    await inBatches(EDITS, async () => {
      try {
        writeFileSync(path.join(s.dirs.workspace, 'wrace.dir', 'config.toml'), 'mode = "standard"\n'); // arm the benign copy
      } catch {
        // renamed to `wrace` at this instant: the copy there is armed or not, either is fine
      }
      try {
        await run(fileEdit.executor, { path: 'wrace/config.toml', old_string: 'mode = "standard"', new_string: 'mode = "open"' }, s.context());
        editsOk += 1;
      } catch (e) {
        note(e);
      }
    });
  } finally {
    swaps = await stop();
  }
  const writeWins = [...s.protectedBefore].filter(([p, before]) => readFileSync(p, 'utf8') !== before).map(([p]) => p);
  const planted = filesUnder(s.dirs.fermixHome).filter((p) => !p.startsWith(`${s.dirs.workspace}/`) && readFileSync(p, 'utf8').includes('PWNED'));
  writeWins.push(...planted);
  const temps = tempFilesUnder(s.dirs.root);
  const summary = { jailed, swaps, readWins, readsOk, writesOk, editsOk, writeWins, temps, errors: Object.fromEntries(errors) };
  console.log(JSON.stringify(summary));
  // The test can fail: the swapper really swapped, and the calls really reached the open (some succeeded).
  expect(swaps.race, JSON.stringify(summary)).toBeGreaterThan(1000);
  expect(swaps.wrace, JSON.stringify(summary)).toBeGreaterThan(1000);
  expect(readsOk, JSON.stringify(summary)).toBeGreaterThan(0);
  expect(writesOk, JSON.stringify(summary)).toBeGreaterThan(0);
  expect(editsOk, JSON.stringify(summary)).toBeGreaterThan(0);
  expect(readWins, JSON.stringify(summary)).toBe(0);
  expect(writeWins, JSON.stringify(summary)).toEqual([]);
  expect(temps, JSON.stringify(summary)).toEqual([]);
  // Nothing outside the real folders got written either (a new file under $FERMIX_HOME or ~/.ssh).
  expect(statSync(path.join(s.dirs.home, '.ssh')).isDirectory()).toBe(true);
  expect(readdirSync(path.join(s.dirs.home, '.ssh'))).toEqual(['id_rsa']);
}

describe('file tools against a directory/symlink swap race', () => {
  it(`0 wins in ${READS} reads, ${WRITES} writes and ${EDITS} edits without the jail`, async () => race(false), 60_000);
  it(`0 wins in ${READS} reads, ${WRITES} writes and ${EDITS} edits with the swapper in the jail`, async () => race(true), 60_000);
});
