#!/usr/bin/env node
// `fermix` — runs the bundled CLI; builds it first in a checkout where it is missing.
// CommonJS, not an ES module: Node starts a CommonJS entry ~3 ms sooner (no ESM loader for the entry;
// measured: docs/decisions/0027, fourth pass). bin/fermix.mjs still works; it loads this file.
'use strict';
const { createRequire } = require('node:module');

const builtin = createRequire(__filename);
const { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } = builtin('node:fs');
const { fileURLToPath } = builtin('node:url');
const { setFlagsFromString } = builtin('node:v8');
const vm = builtin('node:vm');

/** Emitted on `process` by the daemon verb once it answers (main/cli/verbs/lifecycle.ts). */
const DAEMON_READY_EVENT = 'fermix:daemon-ready';
/** How long after the daemon answers its steady-state V8 flags are set (switchFlagsOnceReady). */
const FLAGS_AFTER_READY_MS = 1_000;

const verb = process.argv[2];
const daemonVerb = verb === 'daemon' || verb === 'run';

// Node's own modules load from code caches built into the binary, which V8 accepts only while the V8
// flags are the ones it was built with: after setFlagsFromString every built-in module loaded later was
// compiled from source (~15 ms of the daemon's start-up, docs/decisions/0026). So the built-ins the daemon
// needs load first, while the flags are still the defaults.
// The list: what the daemon has loaded by the time it answers (process.moduleLoadList). Not https/tls,
// zlib, dns/promises, worker_threads or readline: the modules that use them load them on first use, so
// start-up no longer pays for them (~1.5 ms), and the first use compiles them from source instead.
if (daemonVerb) {
  for (const name of ['os', 'util', 'crypto', 'http', 'net', 'dns', 'fs/promises', 'perf_hooks', 'child_process', 'cluster']) builtin(name);
}
// Not --liftoff-only any more: it kept node-sqlite3-wasm's WebAssembly on V8's baseline compiler, and SQLite
// is native since decision 0032. The WebAssembly left (the bash grammar the hardline parses with, loaded
// after start-up) is better off tiering up as usual.
// No Sparkplug (V8's baseline compiler) until the daemon answers: start-up runs most of its code once, and
// compiling the functions that got warm to baseline code cost the main thread more than it saved (start to
// ready 5-12 ms sooner without it, three interleaved comparisons: docs/decisions/0027, fourth pass).
// Switched back on a second after the daemon answers (switchFlagsOnceReady), so a long-running daemon
// tiers up as usual. Only for the daemon verb: other verbs do not pass through the ready event.
if (daemonVerb) setFlagsFromString('--no-sparkplug');
// Not --semi-space-growth-factor=4 during start-up, although it cut start-up's GC pauses (~33 → ~22 ms
// under load): the young generation it grew (32 MB) stayed through the turns until a memory-reducing full
// GC, and RSS after 300 turns became bimodal (max 103–114 or 141–149 MB; docs/decisions/0027).

const outDir = fileURLToPath(new URL('../out/node/', `file://${__filename}`));
const bundle = new URL('../out/node/cli.mjs', `file://${__filename}`);
if (!existsSync(fileURLToPath(bundle))) {
  const build = builtin('node:child_process').spawnSync(process.execPath, [fileURLToPath(new URL('../scripts/build-node.mjs', `file://${__filename}`)), '--quiet'], { stdio: 'inherit' });
  if (build.status !== 0) {
    console.error('fermix: could not build the CLI. Run `npm ci` in the Fermix folder, then try again.');
    process.exit(1);
  }
}

/**
 * `fermix daemon` runs from out/node/daemon.cjs (the same CLI as one CommonJS file), compiled with a V8
 * code cache: with it V8 skips parsing and compiling the daemon's JavaScript (~70 ms of CPU per start,
 * docs/decisions/0027). The cache is named after the bundle's size and mtime, because V8 itself only
 * checks the source length; V8 rejects it on a different Node version or flags, and it is then rewritten.
 * Returns undefined when the bundle cannot be compiled or evaluated (the caller falls back to cli.mjs).
 */
async function loadDaemonBundle() {
  const file = `${outDir}daemon.cjs`;
  let stamp;
  try {
    const stat = statSync(file);
    stamp = `${stat.size}-${Math.trunc(stat.mtimeMs)}`;
  } catch {
    return undefined; // an older build without the daemon bundle
  }
  const cacheFile = `${outDir}daemon-${stamp}.v8cache`;
  let cachedData;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  try {
    // ASCII by construction (scripts/build-node.mjs): latin1 gives V8 a one-byte string without UTF-8 decoding.
    // The file is one function expression, the bundle inside its CommonJS wrapper (written so by the build).
    const source = readFileSync(file, 'latin1');
    const script = new vm.Script(source, {
      filename: file,
      cachedData,
      importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
    });
    const module = { exports: {} };
    const wrapped = script.runInThisContext();
    if (typeof wrapped !== 'function') throw new Error('out/node/daemon.cjs is from an older build; run `npm run build`');
    wrapped(module.exports, createRequire(file), module, file, outDir);
    if (cachedData === undefined || script.cachedDataRejected) {
      // Written once the daemon is ready, so the cache holds what start-up compiled (and no more: a bigger
      // cache takes longer to read); by rename, so concurrent daemons never read half a file. Before the
      // flags change below: V8 accepts a cache only under the flags it was written with. Failing to write
      // (a read-only install) only costs speed.
      process.once(DAEMON_READY_EVENT, () => {
        try {
          writeFileSync(`${cacheFile}.${process.pid}.tmp`, script.createCachedData());
          renameSync(`${cacheFile}.${process.pid}.tmp`, cacheFile);
          for (const name of readdirSync(outDir)) {
            if (name.endsWith('.v8cache') && `${outDir}${name}` !== cacheFile) rmSync(`${outDir}${name}`, { force: true });
          }
        } catch {
          // no cache this time
        }
      });
    }
    return module.exports.runCli;
  } catch (error) {
    console.error(`fermix: the daemon bundle could not be loaded (${error.message}); starting from the ESM bundle.`);
    return undefined;
  }
}

async function main() {
  const runCli = daemonVerb ? await loadDaemonBundle() : undefined;
  if (daemonVerb) switchFlagsOnceReady();
  if (runCli) process.exitCode = await runCli(process.argv.slice(2));
  else await import(bundle.href);
}

function switchFlagsOnceReady() {
  // Without it V8 let the old generation grow to ~100 MB of garbage before collecting it (the heap limit
  // here is ~4 GB) and kept a 32 MB young generation: RSS 234 MB after 300 turns with 36-45 MB live.
  // With it: a smaller heap-growing factor and young generation, 123-138 MB after 300 turns, idle -12 MB;
  // it costs more frequent GCs (~+5 ms CPU per turn, docs/decisions/0027). A heuristic, not a limit:
  // unlike --max-old-space-size it cannot make the daemon run out of heap. Set once the daemon answers, not
  // before: in its memory-reducing mode V8 ran two full collections and a dozen more scavenges during
  // start-up. The young generation then grows no further: at 2× it reached 32 MB between the (now rarer)
  // memory-reducing full GCs, and RSS peaked at 144-149 MB during 300 turns; at 1×, 101-108 MB (memory
  // suite, docs/decisions/0027).
  // A second after the daemon answers, not at that moment: switched at once, the memory-reducing mode ran
  // its collections just as the first requests came in (start to /health/ready 20 ms later, median of 15
  // interleaved starts: docs/decisions/0027, fourth pass). After loadDaemonBundle's listener, which writes
  // the code cache at ready: V8 accepts a cache only under the flags it was written with.
  process.once(DAEMON_READY_EVENT, () => {
    setTimeout(() => {
      setFlagsFromString('--sparkplug');
      setFlagsFromString('--optimize-for-size');
      setFlagsFromString('--semi-space-growth-factor=1');
    }, FLAGS_AFTER_READY_MS).unref();
  });
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
