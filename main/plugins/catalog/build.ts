/**
 * Builds the in-app catalog: each plugin source directory is validated, packed deterministically,
 * hashed and signed, and `index.json` lists them (reference §3.3). Several source directories may
 * carry the same plugin at different versions (tests build upgrade paths that way).
 * Used by scripts/build-catalog.mjs and by tests; the signing key is the caller's business (keys.ts).
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { decodeManifest, type PluginManifest } from '../manifest.js';
import { catalogIndexSchema, type CatalogEntry, type CatalogIndex } from './catalog-schema.js';
import { packPlugin } from './pack.js';
import { keyId, publicKeyOf, sha256Hex, signBlob } from './signing.js';

export interface BuildCatalogOptions {
  /** Plugin directories (each holds plugin.json at its root; the directory name is the plugin name). */
  sources: string[];
  /** Where index.json and artifacts/ go. */
  outDir: string;
  privateKeyPem: string;
  generatedAt?: string;
  /** Names treated as bundled (always present, cannot be uninstalled). */
  bundled?: readonly string[];
}

const compareSemver = (a: string, b: string) => {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 3; i += 1) if (pa[i] !== pb[i]) return pa[i] - pb[i];
  return 0;
};
export { compareSemver };

function entryFor(manifest: PluginManifest, bundled: boolean): Omit<CatalogEntry, 'versions' | 'latest'> {
  const rails = [...new Set(manifest.tools.map((tool) => tool.rail))].sort();
  return {
    name: manifest.name,
    display_name: manifest.display_name,
    category: manifest.category,
    description: manifest.description,
    short_description: manifest.interface?.short_description ?? manifest.description,
    developer_name: manifest.interface?.developer_name ?? 'unknown',
    brand_color: manifest.interface?.brand_color ?? null,
    logo: null,
    auth_type: manifest.auth.type,
    auth_provider: manifest.auth.type === 'oauth2' ? manifest.auth.provider : null,
    rails,
    ...(manifest.runtime ? { runtime_kind: manifest.runtime.kind === 'remote_mcp' ? 'remote_mcp' as const : 'local_stdio' as const } : {}),
    bundled,
    yanked: [],
  };
}

export async function buildCatalog(options: BuildCatalogOptions): Promise<CatalogIndex> {
  const generatedAt = options.generatedAt ?? new Date().toISOString();
  const signerId = keyId(publicKeyOf(options.privateKeyPem));
  const artifactsDir = join(options.outDir, 'artifacts');
  mkdirSync(artifactsDir, { recursive: true });
  const entries = new Map<string, CatalogEntry>();
  for (const dir of options.sources) {
    const file = join(dir, 'plugin.json');
    const manifest = decodeManifest(readFileSync(file, 'utf8'), file, basename(dir));
    const bytes = await packPlugin(dir);
    const artifactName = `${manifest.name}-${manifest.version}.tar.gz`;
    writeFileSync(join(artifactsDir, artifactName), bytes);
    const version = {
      version: manifest.version,
      published_at: generatedAt,
      min_core_version: manifest.min_core_version,
      plugin_api: manifest.plugin_api,
      artifacts: [{ target: 'any', url: `file:artifacts/${artifactName}`, sha256: sha256Hex(bytes), signature: signBlob(options.privateKeyPem, bytes), key_id: signerId, bytes: bytes.length }],
    };
    const existing = entries.get(manifest.name);
    if (existing) {
      if (existing.versions.some((v) => v.version === manifest.version)) throw new Error(`${file}: ${manifest.name}@${manifest.version} is given twice.`);
      existing.versions.push(version);
      if (compareSemver(manifest.version, existing.latest) > 0) Object.assign(existing, entryFor(manifest, existing.bundled), { latest: manifest.version, versions: existing.versions });
    } else {
      entries.set(manifest.name, { ...entryFor(manifest, options.bundled?.includes(manifest.name) ?? false), latest: manifest.version, versions: [version] });
    }
  }
  for (const entry of entries.values()) entry.versions.sort((a, b) => compareSemver(a.version, b.version));
  const index = catalogIndexSchema.parse({ schema_version: 1, generated_at: generatedAt, plugins: [...entries.values()].sort((a, b) => a.name.localeCompare(b.name)) });
  const temp = join(options.outDir, `.index.json.${process.pid}.tmp`);
  writeFileSync(temp, `${JSON.stringify(index, null, 2)}\n`);
  renameSync(temp, join(options.outDir, 'index.json'));
  return index;
}
