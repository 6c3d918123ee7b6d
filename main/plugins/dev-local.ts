/**
 * `[fermix_core.plugins] dev_local = "<dir>"` (issue 11 item 9): every subfolder of the directory is a
 * plugin source folder laid out like resources/plugins/<name>/, loaded without a signature and
 * validated with the same manifest schema (decodeManifest, folder name = manifest name). A refused
 * folder fails loudly — an entry naming the folder and the field, which the supervisor logs, doctor
 * and `plugins list` show — but only that folder: the daemon and every other plugin keep loading.
 * Hosted (remote MCP) manifests are refused `unverified_remote_runtime` (issue 12 item 4): a remote
 * runtime's endpoint is exactly what a signature vouches for.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isFermixError } from '../core/errors.js';
import { decodeManifest, type PluginManifest } from './manifest.js';

export interface DevLocalPlugin {
  manifest: PluginManifest;
  dir: string;
}

export interface DevLocalRefusal {
  folder: string;
  code: string;
  /** The manifest field at fault (`name` for a collision, `runtime.kind` for a hosted runtime). */
  field: string;
  message: string;
}

export interface DevLocalScan {
  dir: string;
  plugins: Map<string, DevLocalPlugin>;
  refusals: DevLocalRefusal[];
}

function runtimeKindOf(text: string): unknown {
  try {
    return (JSON.parse(text) as { runtime?: { kind?: unknown } } | null)?.runtime?.kind;
  } catch {
    return undefined;
  }
}

/** The field an invalid_manifest message names: "<file>: field `x.y` …". */
const fieldOf = (message: string) => /field `([^`]+)`/.exec(message)?.[1] ?? '(root)';

/**
 * Reads `dir` once. `taken` holds the catalog's and the store's plugin names: a dev folder with one of
 * them is refused (it would silently shadow a signed plugin), as is a second folder with a name seen.
 */
export function scanDevLocal(dir: string, taken: ReadonlySet<string>): DevLocalScan {
  const scan: DevLocalScan = { dir, plugins: new Map(), refusals: [] };
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    scan.refusals.push({ folder: dir, code: 'dev_local_missing', field: 'dev_local', message: `[fermix_core.plugins] dev_local names ${dir}, which is not a directory.` });
    return scan;
  }
  for (const folder of readdirSync(dir).filter((name) => !name.startsWith('.')).sort()) {
    const source = join(dir, folder);
    if (!statSync(source).isDirectory()) continue;
    const file = join(source, 'plugin.json');
    if (!existsSync(file)) {
      scan.refusals.push({ folder: source, code: 'invalid_manifest', field: 'plugin.json', message: `${source} has no plugin.json: a plugin source folder needs its manifest there.` });
      continue;
    }
    const text = readFileSync(file, 'utf8');
    // Hosted is refused before the schema runs: whatever else the manifest says, its remote runtime is
    // the one thing dev_local cannot vouch for.
    if (runtimeKindOf(text) === 'remote_mcp') {
      scan.refusals.push({ folder: source, code: 'unverified_remote_runtime', field: 'runtime.kind', message: `${file}: field \`runtime.kind\` is remote_mcp; a hosted plugin loads only from the signed catalog, never from dev_local.` });
      continue;
    }
    let manifest: PluginManifest;
    try {
      manifest = decodeManifest(text, file, folder);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      scan.refusals.push({ folder: source, code: isFermixError(error) ? error.code : 'invalid_manifest', field: fieldOf(message), message });
      continue;
    }
    if (taken.has(manifest.name) || scan.plugins.has(manifest.name)) {
      const other = scan.plugins.get(manifest.name)?.dir ?? 'a catalog or installed plugin';
      scan.refusals.push({ folder: source, code: 'plugin_name_collision', field: 'name', message: `${file}: field \`name\` is "${manifest.name}", which ${other} already uses.` });
      continue;
    }
    scan.plugins.set(manifest.name, { manifest, dir: source });
  }
  return scan;
}
