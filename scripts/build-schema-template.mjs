// Writes out/node/schema-<digest>.db: the database with every migration applied, which a fresh home's
// daemon copies instead of running the migrations (main/store/schema-template.ts, docs/decisions/0027).
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { withBundled } from './with-bundled.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// Inside out/node so that @photostructure/sqlite (kept external) resolves from the project's node_modules.
const outfile = join(root, 'out', 'node', `schema-template-build-${process.pid}.mjs`);
await withBundled(join(root, 'main', 'store', 'schema-template-build.ts'), outfile, ({ buildSchemaTemplate }) => buildSchemaTemplate(join(root, 'out', 'node')));
