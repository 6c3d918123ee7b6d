/** The body of scripts/build-catalog.mjs (bundled by it with esbuild): flags → buildCatalog. */
import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { BUNDLED_PLUGINS } from '../store/bundled.js';
import { buildCatalog } from './build.js';
import { catalogLocation, signingKeyForBuild } from './keys.js';

export async function runCatalogBuild(root: string, argv: string[], env: NodeJS.ProcessEnv): Promise<string> {
  const flag = (name: string) => {
    const at = argv.indexOf(name);
    return at >= 0 ? argv[at + 1] : undefined;
  };
  const resources = join(root, 'resources');
  const sourcesDir = resolve(flag('--sources') ?? join(resources, 'plugins'));
  const location = { ...catalogLocation(resources), ...(flag('--out') ? { catalogDir: resolve(flag('--out') as string) } : {}), ...(flag('--keys') ? { keysDir: resolve(flag('--keys') as string) } : {}) };
  const devKeyDir = resolve(flag('--dev-key-dir') ?? join(root, 'out', 'catalog-dev-key'));
  const key = signingKeyForBuild({ env, location, devKeyDir, release: argv.includes('--release') });
  const sources = readdirSync(sourcesDir).filter((name) => !name.startsWith('.') && statSync(join(sourcesDir, name)).isDirectory()).sort().map((name) => join(sourcesDir, name));
  const index = await buildCatalog({ sources, bundled: BUNDLED_PLUGINS, outDir: location.catalogDir, privateKeyPem: key.privatePem, generatedAt: env.SOURCE_DATE_EPOCH ? new Date(Number(env.SOURCE_DATE_EPOCH) * 1000).toISOString() : undefined });
  return `catalog: ${index.plugins.length} plugins signed with the ${key.mode} key into ${location.catalogDir}`;
}
