// Build scripts that run TypeScript from main/ (the catalog, the schema template): bundle one entry to a
// temporary ESM file with esbuild (packages stay external, resolved from the project's node_modules), import
// it, hand the module to `use`, and remove the file whatever happens.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

export async function withBundled(entry, outfile, use) {
  await build({ entryPoints: [entry], outfile, bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', logLevel: 'warning' });
  try {
    return await use(await import(pathToFileURL(outfile).href));
  } finally {
    rmSync(outfile, { force: true });
  }
}
