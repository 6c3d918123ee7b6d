// Bundles the daemon + CLI for plain Node (out/node/cli.mjs). Pure-JS dependencies are bundled in: loading
// zod or ws as hundreds of separate ESM files costs ~0.4 s of start-up here. Kept external: packages that
// load files beside themselves (node-sqlite3-wasm's and web-tree-sitter's .wasm), N-API modules, and big lazily loaded ones.
// Runs in `prepare` (so `npx fermix` works right after `npm ci`) and before tests and benchmarks.
import { build } from 'esbuild';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outfile = join(root, 'out', 'node', 'cli.mjs');
// Old chunks are removed only once they are an hour old: a daemon started from the previous build may
// still import one of them lazily (a verb, a tool), and deleting it under its feet would crash it.
const chunkDir = join(dirname(outfile), 'chunks');
if (existsSync(chunkDir)) {
  for (const name of readdirSync(chunkDir)) {
    const file = join(chunkDir, name);
    if (Date.now() - statSync(file).mtimeMs > 3_600_000) rmSync(file, { force: true });
  }
}
// zod's `locales` namespace re-exports 64 languages (366 KB) that the daemon never selects (it uses
// the default English messages, which zod imports on its own): parsing them cost start-up time.
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(builder) {
    builder.onResolve({ filter: /(^|\/)locales\/index\.js$/ }, (args) =>
      /node_modules[\\/]zod[\\/]/.test(args.importer) ? { path: 'zod-locales-en-only', namespace: 'fermix-zod-locales' } : undefined,
    );
    builder.onLoad({ filter: /.*/, namespace: 'fermix-zod-locales' }, () => ({
      contents: `export { default as en } from ${JSON.stringify(join(root, 'node_modules', 'zod', 'v4', 'locales', 'en.js'))};`,
      resolveDir: root,
      loader: 'js',
    }));
  },
};
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
  external: [
    'electron', 'node-sqlite3-wasm', '@napi-rs/keyring', '@nut-tree-fork/*', 'playwright-core', 'playwright',
    'bufferutil', 'utf-8-validate', '@sigstore/*', 'web-tree-sitter',
  ],
  // Bundled CommonJS dependencies (ws, ajv) call require(); give the ESM bundle one.
  banner: { js: "import { createRequire as __fermixCreateRequire } from 'node:module'; const require = __fermixCreateRequire(import.meta.url);" },
  plugins: [zodEnglishOnly],
  sourcemap: true,
  metafile: true,
  logLevel: 'warning',
});
// Kept for the layering test: the daemon's module graph must never contain electron.
writeFileSync(join(root, 'out', 'node', 'meta.json'), JSON.stringify(result.metafile));
if (!process.argv.includes('--quiet')) console.log(`built ${outfile} in ${Date.now() - started} ms`);
// The signed plugin catalog (resources/catalog/) is built here too, so a clean `npm ci` has one.
await import('./build-catalog.mjs');
