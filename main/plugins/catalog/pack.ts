/**
 * Deterministic plugin artifacts: the same plugin directory always packs to the same bytes, so the
 * catalog's sha256 is reproducible. Files are copied to a scratch tree with normalized modes (0644, or
 * 0755 where an executable bit was set), packed in byte-sorted order with `portable` (no owners, no
 * gzip timestamp) and a fixed mtime. Directory entries are left out: extraction creates them.
 */
import { chmodSync, copyFileSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { FermixError } from '../../core/errors.js';

const FIXED_MTIME = new Date('2000-01-01T00:00:00Z');

/** Every file under `dir`, relative, '/'-separated, byte-sorted. Symlinks and dotfiles are refused (reference §3.1). */
export function listPluginFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (relative: string) => {
    for (const name of readdirSync(join(dir, relative))) {
      const path = relative === '' ? name : `${relative}/${name}`;
      if (name.startsWith('.')) throw packRefusal(dir, path, 'is a dotfile');
      const stat = lstatSync(join(dir, path));
      if (stat.isSymbolicLink()) throw packRefusal(dir, path, 'is a symlink');
      if (stat.isDirectory()) walk(path);
      else if (stat.isFile()) out.push(path);
      else throw packRefusal(dir, path, 'is not a regular file');
    }
  };
  walk('');
  return out.sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
}

function packRefusal(dir: string, path: string, why: string): FermixError {
  return new FermixError({ code: 'plugin_pack_refused', message: `${join(dir, path)} ${why}; plugin artifacts hold regular files only.`, hint: 'Remove it from the plugin directory and run `node scripts/build-catalog.mjs` again.' });
}

export async function packPlugin(dir: string): Promise<Buffer> {
  const files = listPluginFiles(dir);
  const scratch = mkdtempSync(join(tmpdir(), 'fermix-pack-'));
  try {
    for (const file of files) {
      const target = join(scratch, file);
      mkdirSync(dirname(target), { recursive: true });
      copyFileSync(join(dir, file), target);
      chmodSync(target, (lstatSync(join(dir, file)).mode & 0o111) !== 0 ? 0o755 : 0o644);
    }
    // tar is loaded here, not with the module: the daemon imports this file's neighbour for compareSemver.
    const { create } = await import('tar');
    const chunks: Buffer[] = [];
    const stream = create({ cwd: scratch, gzip: { level: 9 }, portable: true, mtime: FIXED_MTIME, noDirRecurse: true }, files);
    for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(chunk);
    return Buffer.concat(chunks);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
