/**
 * Install: fetch the artifact (file: for bundled, https only through Net.Guard), verify sha256 then
 * the signature, parse and check every entry, stage the tree, re-validate the manifest, record the
 * tree digest, and activate with renames. Any refusal leaves installed/ as it was.
 */
import { createReadStream, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FermixError } from '../../core/errors.js';
import { guardedFetch, type GuardedFetchOptions } from '../../net/index.js';
import { resolveArtifactUrl, verifyArtifact, type Catalog } from '../catalog/catalog.js';
import type { CatalogEntry, CatalogVersion } from '../catalog/catalog-schema.js';
import { compareSemver } from '../catalog/build.js';
import { decodeManifest } from '../manifest.js';
import { checkArtifactContents, readArtifact, writeArtifactFiles } from './extract.js';
import type { PluginStore, Provenance } from './store.js';
import { readTree, treeDigest } from './tree-digest.js';

export const SUPPORTED_PLUGIN_API = [2, 3] as const;

export type InstallPhase = 'download' | 'verify' | 'extract' | 'activate' | 'done';
export interface InstallProgress {
  plugin: string;
  version: string;
  phase: InstallPhase;
  bytes: number;
  total: number;
}

export interface InstallDeps {
  store: PluginStore;
  catalog: Catalog;
  coreVersion: string;
  /** Net.Guard options for https artifacts (tests pass their CA and the minted test policy). */
  net?: Pick<GuardedFetchOptions, 'policy' | 'lookup' | 'ca'>;
  onProgress?: (progress: InstallProgress) => void;
}

export function isCompatible(version: Pick<CatalogVersion, 'min_core_version' | 'plugin_api'>, coreVersion: string): boolean {
  return compareSemver(version.min_core_version, coreVersion) <= 0 && (SUPPORTED_PLUGIN_API as readonly number[]).includes(version.plugin_api);
}

function catalogEntry(catalog: Catalog, name: string): CatalogEntry {
  const entry = catalog.entry(name);
  if (!entry) throw new FermixError({ code: 'unknown_plugin', message: `There is no plugin named ${name} in this Fermix's catalog.`, hint: 'Run `fermix plugins catalog` to see what this build offers.', data: { plugin: name } });
  return entry;
}

/** The version to install: the one asked for, or the newest compatible, non-yanked one. */
export function pickVersion(catalog: Catalog, name: string, coreVersion: string, wanted?: string): CatalogVersion {
  const entry = catalogEntry(catalog, name);
  if (wanted !== undefined) {
    const version = entry.versions.find((candidate) => candidate.version === wanted);
    if (!version) throw new FermixError({ code: 'unknown_plugin_version', message: `The catalog has no ${name}@${wanted} (it has ${entry.versions.map((v) => v.version).join(', ')}).`, hint: `Run \`fermix plugins install ${name}\` for the newest compatible version.`, data: { plugin: name, version: wanted } });
    if (!isCompatible(version, coreVersion)) throw incompatible(name, version, coreVersion);
    return version;
  }
  const candidates = entry.versions.filter((v) => !entry.yanked.includes(v.version) && isCompatible(v, coreVersion)).sort((a, b) => compareSemver(b.version, a.version));
  if (candidates.length === 0) throw incompatible(name, entry.versions[entry.versions.length - 1], coreVersion);
  return candidates[0];
}

function incompatible(name: string, version: CatalogVersion, coreVersion: string): FermixError {
  return new FermixError({ code: 'incompatible', message: `${name}@${version.version} needs Fermix ${version.min_core_version} with plugin API ${version.plugin_api}; this is Fermix ${coreVersion}.`, hint: 'Install a newer Fermix release (`fermix version` shows this one), then run `fermix plugins upgrade ' + name + '`.', data: { plugin: name, version: version.version, min_core_version: version.min_core_version } });
}

async function fetchArtifact(deps: InstallDeps, name: string, version: CatalogVersion): Promise<Buffer> {
  const artifact = version.artifacts.find((candidate) => candidate.target === 'any') ?? version.artifacts[0];
  const where = resolveArtifactUrl(deps.catalog.location, artifact.url);
  const report = (bytes: number) => deps.onProgress?.({ plugin: name, version: version.version, phase: 'download', bytes, total: artifact.bytes });
  if (where.kind === 'https') {
    const response = await guardedFetch(where.url, { ...deps.net, maxBytes: artifact.bytes, maxRedirects: 0, headers: { accept: 'application/gzip', 'accept-encoding': 'identity' } });
    if (response.status !== 200) throw new FermixError({ code: 'artifact_download_failed', message: `Downloading ${name}@${version.version} answered HTTP ${response.status}.`, hint: `Try \`fermix plugins install ${name}\` again later.` });
    report(response.body.length);
    return response.body;
  }
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of createReadStream(where.path, { highWaterMark: 64 * 1024 }) as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    if (bytes > artifact.bytes) break; // longer than the catalog says: the checksum will refuse it
    chunks.push(chunk);
    report(bytes);
  }
  return Buffer.concat(chunks);
}

/** Installs `name` (the given version, or the newest compatible) and makes it current unless told not to. */
export async function installPlugin(deps: InstallDeps, name: string, options: { version?: string; makeCurrent?: boolean } = {}): Promise<Provenance> {
  const version = pickVersion(deps.catalog, name, deps.coreVersion, options.version);
  const artifactRecord = version.artifacts.find((candidate) => candidate.target === 'any') ?? version.artifacts[0];
  deps.store.sweepStaging();
  const bytes = await fetchArtifact(deps, name, version);
  deps.onProgress?.({ plugin: name, version: version.version, phase: 'verify', bytes: bytes.length, total: artifactRecord.bytes });
  verifyArtifact(bytes, artifactRecord, deps.catalog.keys, deps.catalog.location);
  const files = await readArtifact(bytes);
  const manifestFile = files.find((file) => file.path === 'plugin.json');
  const where = `${name}@${version.version}/plugin.json`;
  const manifest = manifestFile ? decodeManifest(manifestFile.content.toString('utf8'), where, name) : undefined;
  checkArtifactContents(files, manifest?.runtime !== undefined && manifest.runtime.kind !== 'remote_mcp');
  if (!manifest) throw new Error('unreachable: checkArtifactContents requires plugin.json');
  if (manifest.version !== version.version) {
    throw new FermixError({ code: 'invalid_manifest', message: `${where}: field \`version\` is ${manifest.version}, but the catalog lists this artifact as ${version.version}.`, hint: 'The artifact does not match its catalog entry; reinstall Fermix.', data: { file: where, field: 'version' } });
  }
  deps.onProgress?.({ plugin: name, version: version.version, phase: 'extract', bytes: bytes.length, total: artifactRecord.bytes });
  const staging = deps.store.newStaging(name);
  try {
    activateStaged(deps, staging, files, bytes, version, artifactRecord, where, options.makeCurrent ?? true);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  deps.onProgress?.({ plugin: name, version: version.version, phase: 'done', bytes: bytes.length, total: artifactRecord.bytes });
  return JSON.parse(readFileSync(join(deps.store.installedDir, name, `${version.version}.provenance.json`), 'utf8')) as Provenance;
}

function activateStaged(deps: InstallDeps, staging: string, files: Awaited<ReturnType<typeof readArtifact>>, bytes: Buffer, version: CatalogVersion, artifactRecord: CatalogVersion['artifacts'][number], where: string, makeCurrent: boolean): void {
  const name = where.split('@')[0];
  const tree = join(staging, 'tree');
  writeArtifactFiles(files, tree);
  const onDisk = readTree(tree);
  const digest = treeDigest(files);
  if ('problem' in onDisk || treeDigest(onDisk) !== digest) throw new FermixError({ code: 'install_failed', message: `The staged files of ${name}@${version.version} differ from its artifact.`, hint: 'Check the disk under $FERMIX_HOME/plugins, then run the install again.' });
  const artifactPath = join(staging, 'artifact.tar.gz');
  writeFileSync(artifactPath, bytes, { mode: 0o600 });
  const provenance: Provenance = { name, version: version.version, sha256: artifactRecord.sha256, signature: artifactRecord.signature, key_id: artifactRecord.key_id, tree_digest: digest, installed_at: new Date().toISOString() };
  // Re-read what was written: the manifest that activates is the one on disk.
  decodeManifest(readFileSync(join(tree, 'plugin.json'), 'utf8'), where, name);
  deps.onProgress?.({ plugin: name, version: version.version, phase: 'activate', bytes: bytes.length, total: artifactRecord.bytes });
  deps.store.activate({ tree, artifact: artifactPath, provenance }, { makeCurrent });
}
