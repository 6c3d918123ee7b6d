// Packs resources/plugins/<name>/ into deterministic tar.gz artifacts and writes the signed
// resources/catalog/index.json (main/plugins/catalog/build.ts). Release builds pass the private key in
// FERMIX_CATALOG_SIGNING_KEY; otherwise a local development key is made under out/catalog-dev-key/
// (see docs/decisions, plugins catalog). Flags: --sources DIR --out DIR --keys DIR --dev-key-dir DIR, and
// --release (or FERMIX_RELEASE_BUILD=1): refuse to build without FERMIX_CATALOG_SIGNING_KEY.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { withBundled } from './with-bundled.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outfile = join(root, 'out', 'catalog-build', `build-${process.pid}.mjs`);
await withBundled(join(root, 'main', 'plugins', 'catalog', 'build-main.ts'), outfile, async ({ runCatalogBuild }) => {
  const summary = await runCatalogBuild(root, process.argv.slice(2), process.env);
  if (!process.argv.includes('--quiet')) console.log(summary);
});
