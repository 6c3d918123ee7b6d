// Bundles the daemon + CLI for plain Node (out/node/cli.mjs). Dependencies stay external: node-sqlite3-wasm
// loads its .wasm from its own folder, and N-API modules cannot be bundled.
// Runs in `prepare` (so `npx fermix` works right after `npm ci`) and before tests and benchmarks.
import { build } from 'esbuild';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outfile = join(root, 'out', 'node', 'cli.mjs');
rmSync(join(dirname(outfile), 'chunks'), { recursive: true, force: true });
mkdirSync(dirname(outfile), { recursive: true });
const started = Date.now();
const result = await build({
  entryPoints: { cli: join(root, 'main', 'cli', 'index.ts') },
  outdir: dirname(outfile),
  outExtension: { '.js': '.mjs' },
  // Verbs load their modules on demand (`fermix version` must not pay for SQLite and the HTTP server).
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  metafile: true,
  logLevel: 'warning',
});
// Kept for the layering test: the daemon's module graph must never contain electron.
writeFileSync(join(root, 'out', 'node', 'meta.json'), JSON.stringify(result.metafile));
if (!process.argv.includes('--quiet')) console.log(`built ${outfile} in ${Date.now() - started} ms`);
