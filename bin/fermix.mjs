#!/usr/bin/env node
// `fermix` — runs the bundled CLI; builds it first in a checkout where it is missing.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';

// SQLite is WebAssembly (node-sqlite3-wasm, 1.3 MB): by default V8 re-compiles its hot functions with
// TurboFan on background threads, which cost ~170 ms of CPU in every daemon start and more than it saved
// in a 20,000-insert run (measured: docs/decisions/, start-up and memory). Liftoff's baseline code is
// enough for the daemon's light queries. Set before the bundle loads, because the module compiles on import.
setFlagsFromString('--liftoff-only');

const bundle = new URL('../out/node/cli.mjs', import.meta.url);
if (!existsSync(fileURLToPath(bundle))) {
  const build = spawnSync(process.execPath, [fileURLToPath(new URL('../scripts/build-node.mjs', import.meta.url)), '--quiet'], { stdio: 'inherit' });
  if (build.status !== 0) {
    console.error('fermix: could not build the CLI. Run `npm ci` in the Fermix folder, then try again.');
    process.exit(1);
  }
}
await import(bundle.href);
