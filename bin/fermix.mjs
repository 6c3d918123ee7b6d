#!/usr/bin/env node
// `fermix` — runs the bundled CLI; builds it first in a checkout where it is missing.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const bundle = new URL('../out/node/cli.mjs', import.meta.url);
if (!existsSync(fileURLToPath(bundle))) {
  const build = spawnSync(process.execPath, [fileURLToPath(new URL('../scripts/build-node.mjs', import.meta.url)), '--quiet'], { stdio: 'inherit' });
  if (build.status !== 0) {
    console.error('fermix: could not build the CLI. Run `npm ci` in the Fermix folder, then try again.');
    process.exit(1);
  }
}
await import(bundle.href);
