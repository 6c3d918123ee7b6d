/**
 * The folder walk behind glob_search and content_search. Breadth-first with names sorted, so the
 * shallow, likely-relevant files come first when a result cap cuts the list. Sandbox rules:
 * - folders are entered only when the policy allows reading them (a protected folder such as
 *   ~/.ssh inside an `open`-mode home is never even listed);
 * - symlinked folders are not followed (no loops, no walking out of the root through a link);
 * - every file handed out is checked by the policy again by the caller, on its real path;
 * - FIFOs, sockets and devices are never handed out (only regular files and symlinks are), and a
 *   symlink to one is refused by the caller's verified open (not_regular_file) without blocking.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { CheckContext, PathPolicy } from '../sandbox/index.js';

export interface WalkEntry {
  /** Absolute path under the (real) root. */
  path: string;
  /** Relative to the root, `/`-separated. */
  rel: string;
  /** A symlink (to a file, or dangling); the caller's policy check decides where it really leads. */
  symlink: boolean;
}

export interface WalkOptions {
  policy: PathPolicy;
  context: CheckContext;
  signal?: AbortSignal;
  /** Stop (partial result) at this Date.now() value. */
  deadline?: number;
  /** Stop after visiting this many entries: a walk of `/` in open mode must end. */
  maxEntries?: number;
  /** Skip descending into a folder by its relative path (e.g. `.git` internals). */
  skipDir?: (rel: string, name: string) => boolean;
}

export interface WalkStats {
  visited: number;
  /** Why the walk ended early, if it did. */
  stopped?: 'deadline' | 'max_entries' | 'aborted';
}

export const DEFAULT_MAX_ENTRIES = 200_000;

export async function* walkFiles(root: string, options: WalkOptions, stats: WalkStats): AsyncGenerator<WalkEntry> {
  const maxEntries = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
  const queue: Array<{ dir: string; rel: string }> = [{ dir: root, rel: '' }];
  while (queue.length > 0) {
    const { dir, rel } = queue.shift() as { dir: string; rel: string };
    let names: import('node:fs').Dirent[];
    try {
      names = await fs.readdir(dir, { withFileTypes: true });
    } catch {
      continue; // unreadable or vanished folder: skip it, as find(1) would after a warning
    }
    names.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of names) {
      stats.visited += 1;
      if (options.signal?.aborted) return void (stats.stopped = 'aborted');
      if (stats.visited > maxEntries) return void (stats.stopped = 'max_entries');
      if (options.deadline !== undefined && stats.visited % 256 === 0 && Date.now() > options.deadline) return void (stats.stopped = 'deadline');
      const childRel = rel === '' ? entry.name : `${rel}/${entry.name}`;
      const childPath = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (options.skipDir?.(childRel, entry.name)) continue;
        if (!options.policy.decide(childPath, 'read', options.context).allowed) continue;
        queue.push({ dir: childPath, rel: childRel });
      } else if (entry.isFile() || entry.isSymbolicLink()) {
        yield { path: childPath, rel: childRel, symlink: entry.isSymbolicLink() };
      }
    }
  }
}

/** `.git` internals are object stores and indexes: noise for a file search unless asked for. */
export function skipGitUnlessNamed(pattern: string): (rel: string, name: string) => boolean {
  const wantsGit = /(^|\/|\{|,)\.git(\/|$|\}|,)/.test(pattern);
  return (_rel, name) => name === '.git' && !wantsGit;
}
