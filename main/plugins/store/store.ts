/**
 * The versioned plugin store under `$FERMIX_HOME/plugins` (decision 0015):
 *   installed/<name>/<version>/                the extracted tree
 *   installed/<name>/<version>.artifact.tar.gz the verified artifact, kept for load-time re-checks
 *   installed/<name>/<version>.provenance.json sha256, signature, key_id, tree digest
 *   installed/<name>/current, pinned           one version string each, replaced by rename
 *   staging/                                   work directories; a crash leaves only these behind
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FermixError } from '../../core/errors.js';
import { verifyArtifact } from '../catalog/catalog.js';
import type { TrustedKey } from '../catalog/signing.js';
import { decodeManifest, type PluginManifest } from '../manifest.js';
import { bundledRefusal, isBundled } from './bundled.js';
import { readTree, treeDigest } from './tree-digest.js';

export interface Provenance {
  name: string;
  version: string;
  sha256: string;
  signature: string;
  key_id: string;
  tree_digest: string;
  installed_at: string;
}

export interface LoadedPlugin {
  manifest: PluginManifest;
  dir: string;
  version: string;
  provenance: Provenance;
  pinned: boolean;
}

export interface InstalledSummary {
  name: string;
  current: string | null;
  pinned: string | null;
  versions: string[];
}

const VERSION_DIR = /^\d+\.\d+\.\d+$/;

export function createPluginStore(pluginsDir: string) {
  const installedDir = join(pluginsDir, 'installed');
  const stagingDir = join(pluginsDir, 'staging');
  const pluginDir = (name: string) => join(installedDir, name);
  const readPointer = (name: string, file: 'current' | 'pinned'): string | null => {
    // Most catalog plugins are not installed: a failed read throws, and a thrown error with its stack cost
    // ~0.3 ms per plugin on every daemon start; existsSync does not throw.
    if (!existsSync(pluginDir(name))) return null;
    try {
      const value = readFileSync(join(pluginDir(name), file), 'utf8').trim();
      return VERSION_DIR.test(value) ? value : null;
    } catch {
      return null;
    }
  };
  /** Temp file + rename in the same directory: a reader sees the old pointer or the new one, never half. */
  const writePointer = (name: string, file: 'current' | 'pinned', version: string | null) => {
    const target = join(pluginDir(name), file);
    if (version === null) return rmSync(target, { force: true });
    const temp = `${target}.${process.pid}.${randomUUID().slice(0, 8)}.tmp`;
    writeFileSync(temp, `${version}\n`, { mode: 0o600 });
    renameSync(temp, target);
  };

  return {
    installedDir,
    stagingDir,
    /** A fresh work directory under staging/ (same file system as installed/, so activation is a rename). */
    newStaging(name: string): string {
      const dir = join(stagingDir, `${name}-${Date.now()}-${randomUUID().slice(0, 8)}`);
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      return dir;
    },
    /** Staging directories left by a killed install; called before each install. Only ones older than `olderThanMs`. */
    sweepStaging(olderThanMs = 60_000): number {
      if (!existsSync(stagingDir)) return 0;
      let removed = 0;
      for (const name of readdirSync(stagingDir)) {
        const path = join(stagingDir, name);
        if (Date.now() - statSync(path).mtimeMs < olderThanMs) continue;
        rmSync(path, { recursive: true, force: true });
        removed += 1;
      }
      return removed;
    },
    /** Moves a verified staged tree into place and points `current` at it. */
    activate(staged: { tree: string; artifact: string; provenance: Provenance }, options: { makeCurrent: boolean }): void {
      const { name, version } = staged.provenance;
      mkdirSync(pluginDir(name), { recursive: true, mode: 0o700 });
      const target = join(pluginDir(name), version);
      if (existsSync(target)) {
        // Reinstalling a version: move the old copy out first, so the rename below cannot fail half-way.
        renameSync(target, join(stagingDir, `${name}-${version}-replaced-${randomUUID().slice(0, 8)}`));
      }
      writeFileSync(join(pluginDir(name), `${version}.provenance.json`), `${JSON.stringify(staged.provenance, null, 2)}\n`, { mode: 0o600 });
      renameSync(staged.artifact, join(pluginDir(name), `${version}.artifact.tar.gz`));
      renameSync(staged.tree, target);
      if (options.makeCurrent) writePointer(name, 'current', version);
    },
    current: (name: string) => readPointer(name, 'current'),
    pinned: (name: string) => readPointer(name, 'pinned'),
    setPinned: (name: string, version: string | null) => writePointer(name, 'pinned', version),
    setCurrent: (name: string, version: string) => writePointer(name, 'current', version),
    hasVersion: (name: string, version: string) => existsSync(join(pluginDir(name), version)) && existsSync(join(pluginDir(name), `${version}.provenance.json`)),
    list(): InstalledSummary[] {
      if (!existsSync(installedDir)) return [];
      return readdirSync(installedDir).sort().map((name) => ({
        name,
        current: readPointer(name, 'current'),
        pinned: readPointer(name, 'pinned'),
        versions: readdirSync(pluginDir(name)).filter((entry) => VERSION_DIR.test(entry)).sort(),
      }));
    },
    /**
     * Loads the current version and re-checks its provenance: the kept artifact's checksum and
     * signature, and the files on disk against the artifact's tree digest. Throws `plugin_tampered`.
     */
    load(name: string, keys: readonly TrustedKey[]): LoadedPlugin | null {
      const version = readPointer(name, 'current');
      if (version === null) return null;
      const base = pluginDir(name);
      const dir = join(base, version);
      const tampered = (why: string) => new FermixError({
        code: 'plugin_tampered',
        message: `The installed plugin ${name}@${version} fails its provenance check (${why}), so it will not load.`,
        hint: `Reinstall it with \`fermix plugins install ${name}\`; if it happens again, check who can write to ${base}.`,
        data: { plugin: name, version, reason: why },
      });
      let provenance: Provenance;
      let artifact: Buffer;
      try {
        provenance = JSON.parse(readFileSync(join(base, `${version}.provenance.json`), 'utf8')) as Provenance;
        artifact = readFileSync(join(base, `${version}.artifact.tar.gz`));
      } catch {
        throw tampered('its provenance record or artifact is missing');
      }
      try {
        verifyArtifact(artifact, provenance, keys);
      } catch (error) {
        throw tampered(`artifact: ${(error as FermixError).code ?? 'unreadable'}`);
      }
      const files = readTree(dir);
      if ('problem' in files) throw tampered(files.problem);
      if (treeDigest(files) !== provenance.tree_digest) throw tampered('an installed file was changed, added or removed');
      const manifestFile = join(dir, 'plugin.json');
      const manifest = decodeManifest(readFileSync(manifestFile, 'utf8'), manifestFile, name);
      if (manifest.version !== version) throw tampered(`the manifest says version ${manifest.version}`);
      return { manifest, dir, version, provenance, pinned: readPointer(name, 'pinned') === version };
    },
    /** Removes a plugin entirely; bundled ones are refused. Rename first: a crash leaves nothing half-deleted in installed/. */
    remove(name: string): boolean {
      if (isBundled(name)) throw bundledRefusal(name);
      if (!existsSync(pluginDir(name))) return false;
      mkdirSync(stagingDir, { recursive: true, mode: 0o700 });
      const trash = join(stagingDir, `${name}-removed-${randomUUID().slice(0, 8)}`);
      renameSync(pluginDir(name), trash);
      rmSync(trash, { recursive: true, force: true });
      return true;
    },
    /** Deletes every version that is neither current nor pinned. */
    gc(): { name: string; version: string }[] {
      const removed: { name: string; version: string }[] = [];
      for (const plugin of this.list()) {
        for (const version of plugin.versions) {
          if (version === plugin.current || version === plugin.pinned) continue;
          for (const suffix of ['', '.artifact.tar.gz', '.provenance.json']) rmSync(join(pluginDir(plugin.name), `${version}${suffix}`), { recursive: true, force: true });
          removed.push({ name: plugin.name, version });
        }
      }
      return removed;
    },
  };
}
export type PluginStore = ReturnType<typeof createPluginStore>;
