// Writes out/node/schema-<digest>.db: the database with every migration applied, which a fresh home's
// daemon copies instead of running the migrations (main/store/schema-template.ts, docs/decisions/0027).
// Bundled to a temporary ESM file first (as build-catalog.mjs does): the migrations are TypeScript.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// Inside out/node so that node-sqlite3-wasm (kept external) resolves from the project's node_modules.
const outfile = join(root, 'out', 'node', `schema-template-build-${process.pid}.mjs`);
await build({
  entryPoints: [join(root, 'main', 'store', 'schema-template-build.ts')],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  logLevel: 'warning',
});
try {
  const { buildSchemaTemplate } = await import(pathToFileURL(outfile).href);
  buildSchemaTemplate(join(root, 'out', 'node'));
} finally {
  rmSync(outfile, { force: true });
}
