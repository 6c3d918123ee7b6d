#!/usr/bin/env node
// `npm start`: the desktop app where Electron can run, otherwise the headless daemon, which prints the URL
// to open in a browser (ARCHITECTURE §1: our build machines cannot download the Electron binary).
// Extra arguments go to the daemon: `npm start -- --port 0`.
// FERMIX_SKIP_BUILD=1 skips the freshness check (tests that run beside others reading out/);
// FERMIX_NO_ELECTRON=1 goes straight to the headless daemon.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findElectronBinary } from './electron-binary.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
// Electron that has not crashed within this time is taken as started (it shows its window in ~1 s).
const STARTUP_GRACE_MS = 4000;

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  // Tests are not in any bundle; editing one needs no rebuild.
  if (!stat.isDirectory()) return /\.test\.tsx?$/.test(path) ? 0 : stat.mtimeMs;
  return readdirSync(path).reduce((newest, entry) => Math.max(newest, newestMtime(join(path, entry))), 0);
}

function run(title, args) {
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`fermix: ${title} failed (exit ${result.status}). Run \`npm run build\` to see the whole error.`);
    process.exit(1);
  }
}

function ensureBuilt() {
  const outputs = ['out/node/cli.mjs', 'out/main/index.js', 'out/preload/index.cjs', 'out/renderer/index.html'].map((path) => join(root, path));
  const sources = ['main', 'preload', 'renderer', 'electron.vite.config.ts', 'package.json'].map((path) => join(root, path));
  const missing = outputs.some((path) => !existsSync(path));
  if (!missing && Math.max(...sources.map(newestMtime)) <= Math.min(...outputs.map(newestMtime))) return;
  console.log(missing ? 'Building Fermix (first start)…' : 'Sources changed since the last build; rebuilding…');
  run('building the daemon', [join(root, 'scripts', 'build-node.mjs'), '--quiet']);
  const electronVite = join(dirname(require.resolve('electron-vite/package.json')), 'bin', 'electron-vite.js');
  run('building the window', [electronVite, 'build', '--logLevel', 'warn']);
}

function lastLine(text) {
  return text.trim().split('\n').filter(Boolean).pop() ?? 'no output';
}

/** Resolves with the running child once it survived the grace period, or with the reason it did not. */
function startElectron(binary) {
  return new Promise((resolve) => {
    const child = spawn(binary, [root], { cwd: root, stdio: ['inherit', 'inherit', 'pipe'] });
    let stderr = '';
    let settled = false;
    const settle = (value) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(value);
    };
    // Hold Electron's stderr during the grace period: if it fails, one line says why instead of its spew.
    const hold = (chunk) => (stderr += chunk);
    child.stderr.on('data', hold);
    const timer = setTimeout(() => {
      child.stderr.off('data', hold);
      process.stderr.write(stderr);
      child.stderr.pipe(process.stderr);
      settle({ child });
    }, STARTUP_GRACE_MS);
    child.once('error', (error) => settle({ reason: `it could not be started: ${error.message}` }));
    child.once('exit', (code, signal) => {
      // Exit 0 at once is a second instance handing over to the first window: that is a success.
      if (code === 0) settle({ exitedCleanly: true });
      else settle({ reason: `it exited with ${signal ?? `code ${code}`}: ${lastLine(stderr)}` });
    });
  });
}

/** Runs a child in the foreground; Ctrl-C reaches it through the terminal, a kill of this pid is passed on. */
function foreground(child) {
  // SIGTERM for both: the child also gets the terminal's SIGINT, and one of each stops it once, cleanly.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill('SIGTERM'));
  child.once('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

/** The daemon already serving this FERMIX_HOME, read from its run files (as `fermix status` does), if any. */
function runningDaemon() {
  const run = join(resolve(process.env.FERMIX_HOME?.trim() || join(homedir(), '.fermix')), 'run');
  try {
    // The pid file is "PID" or "PID …" (pid-lock.ts reads it with parseInt too).
    const pid = Number.parseInt(readFileSync(join(run, 'daemon.pid'), 'utf8').trim(), 10);
    if (!Number.isInteger(pid) || pid <= 0) return undefined;
    process.kill(pid, 0);
    // A zombie (exited, not reaped yet) is not a running daemon.
    if (process.platform === 'linux' && /\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'))) return undefined;
    const info = JSON.parse(readFileSync(join(run, 'daemon.json'), 'utf8'));
    return { pid, url: typeof info.url === 'string' ? info.url : undefined };
  } catch {
    return undefined;
  }
}

// A second `npm start` is not an error: the person wants Fermix, and it is there.
const running = runningDaemon();
if (running) {
  console.log(`Fermix is already running (pid ${running.pid}).${running.url ? ` Open in a browser: ${running.url}` : ''}`);
  console.log('To start it afresh: `npx fermix stop`, then `npm start` again.');
  process.exit(0);
}

if (process.env.FERMIX_SKIP_BUILD !== '1') ensureBuilt();

let reason;
const electron = process.env.FERMIX_NO_ELECTRON === '1' ? { reason: 'FERMIX_NO_ELECTRON=1 is set' } : findElectronBinary();
if (!electron.path) {
  reason = electron.reason;
} else if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
  reason = 'no display: $DISPLAY and $WAYLAND_DISPLAY are unset';
} else {
  const started = await startElectron(electron.path);
  if (started.exitedCleanly) process.exit(0);
  if (started.child) foreground(started.child);
  reason = started.reason;
}

if (reason) {
  console.log(`Electron is not available here (${reason}); starting the headless daemon instead.`);
  // FERMIX_WATCH_PARENT: should this script die without passing a signal on (SIGKILL), the daemon stops too.
  foreground(spawn(process.execPath, [join(root, 'bin', 'fermix.cjs'), 'daemon', ...process.argv.slice(2)], { cwd: root, stdio: 'inherit', env: { ...process.env, FERMIX_WATCH_PARENT: '1' } }));
}
