// Bundles the daemon + CLI for plain Node (out/node/cli.mjs). Pure-JS dependencies are bundled in: loading
// zod or ws as hundreds of separate ESM files costs ~0.4 s of start-up here. Kept external: packages that
// load files beside themselves (web-tree-sitter's .wasm), N-API modules (SQLite's among them), and big lazily loaded ones.
// Runs in `prepare` (so `npx fermix` works right after `npm ci`) and before tests and benchmarks.
import { build } from 'esbuild';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
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
const external = [
  'electron', '@photostructure/sqlite', '@napi-rs/keyring', '@nut-tree-fork/*', 'playwright-core', 'playwright',
  'bufferutil', 'utf-8-validate', '@sigstore/*', 'web-tree-sitter',
];
// `fermix daemon` runs from one CommonJS file instead (out/node/daemon.cjs): bin/fermix.cjs compiles it
// with vm.Script and a V8 code cache, which skips parsing and compiling the daemon's JavaScript on every
// start after the first (measured: docs/decisions/0027). Lazy imports become lazy require()s inside it.
const daemonBuild = build({
  stdin: { contents: "export { runCli } from './main/cli/main.ts';", resolveDir: root, sourcefile: 'daemon-entry.ts', loader: 'ts' },
  outfile: join(dirname(outfile), 'daemon.cjs'),
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  supported: { 'dynamic-import': false },
  // No comments or indentation: less to read on every start (names stay, for stack traces). ASCII only,
  // so the loader reads it as latin1: a one-byte string (4 MB of heap, not 8) and no UTF-8 decoding.
  minifyWhitespace: true,
  charset: 'ascii',
  define: { 'import.meta.url': '__fermixImportMetaUrl' },
  banner: { js: "const __fermixImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
  external,
  plugins: [zodEnglishOnly],
  logLevel: 'warning',
  // Written by rename, never in place: a daemon starting meanwhile reads either the old file or the new one.
  write: false,
}).then(({ outputFiles }) => {
  const target = join(dirname(outfile), 'daemon.cjs');
  // charset 'ascii' escapes strings, templates and names, but not regular-expression literals (readability's
  // word lists): \uXXXX means the same code unit there, in /u and non-/u patterns alike.
  const ascii = outputFiles[0].text.replace(/[^\x00-\x7f]/g, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`);
  // Written inside its CommonJS wrapper, which bin/fermix.cjs would otherwise add on every start: a second
  // 4 MB string, copied whole when V8 flattens it, and garbage straight after.
  const contents = Buffer.from(`(function (exports, require, module, __filename, __dirname) {${ascii}\n})`, 'latin1');
  // An unchanged bundle keeps its mtime, which names its V8 code cache (bin/fermix.cjs): no cold start after a no-op build.
  if (existsSync(target) && Buffer.compare(readFileSync(target), contents) === 0) return;
  writeFileSync(`${target}.${process.pid}.tmp`, contents);
  renameSync(`${target}.${process.pid}.tmp`, target);
});
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
  external,
  // Bundled CommonJS dependencies (ws, ajv) call require(); give the ESM bundle one.
  banner: { js: "import { createRequire as __fermixCreateRequire } from 'node:module'; const require = __fermixCreateRequire(import.meta.url);" },
  plugins: [zodEnglishOnly],
  sourcemap: true,
  metafile: true,
  logLevel: 'warning',
});
// Kept for the layering test: the daemon's module graph must never contain electron.
writeFileSync(join(root, 'out', 'node', 'meta.json'), JSON.stringify(result.metafile));
await daemonBuild;
// The schema template a fresh home's database is copied from (main/store/schema-template.ts).
await import('./build-schema-template.mjs');
if (!process.argv.includes('--quiet')) console.log(`built ${outfile} in ${Date.now() - started} ms`);
// The signed plugin catalog (resources/catalog/) is built here too, so a clean `npm ci` has one.
await import('./build-catalog.mjs');
