/**
 * `tree_digest_v2` (reference §3.2): SHA-256 over `fermix-plugin-tree-v2\0`, a u32 file count, then per
 * file a u32 path length, the path, a u64 content length and the content, paths NFC-normalized and
 * byte-sorted. The same function digests an artifact's entries and a directory on disk, so a load can
 * prove the files are exactly what the signed artifact held.
 */
import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface TreeFile {
  path: string;
  content: Buffer;
}

export function treeDigest(files: readonly TreeFile[]): string {
  const sorted = files.map((file) => ({ path: Buffer.from(file.path.normalize('NFC')), content: file.content })).sort((a, b) => Buffer.compare(a.path, b.path));
  const hash = createHash('sha256').update('fermix-plugin-tree-v2\0');
  const u32 = (n: number) => { const b = Buffer.alloc(4); b.writeUInt32BE(n); return b; };
  const u64 = (n: number) => { const b = Buffer.alloc(8); b.writeBigUInt64BE(BigInt(n)); return b; };
  hash.update(u32(sorted.length));
  for (const file of sorted) hash.update(u32(file.path.length)).update(file.path).update(u64(file.content.length)).update(file.content);
  return hash.digest('hex');
}

/** Every regular file under `dir`; anything else (a symlink planted after install) counts as tampering. */
export function readTree(dir: string): TreeFile[] | { problem: string } {
  const files: TreeFile[] = [];
  const walk = (relative: string): string | null => {
    for (const name of readdirSync(join(dir, relative))) {
      const path = relative === '' ? name : `${relative}/${name}`;
      const stat = lstatSync(join(dir, path));
      if (stat.isDirectory()) {
        const problem = walk(path);
        if (problem) return problem;
      } else if (stat.isFile()) files.push({ path, content: readFileSync(join(dir, path)) });
      else return `${path} is not a regular file`;
    }
    return null;
  };
  const problem = walk('');
  return problem ? { problem } : files;
}
