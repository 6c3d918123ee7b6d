/**
 * Physical path resolution for the sandbox gate.
 *
 * Why not `fs.realpathSync` + `path.resolve`:
 * - `path.resolve` folds `..` lexically, but the kernel folds it *after* following symlinks, so
 *   `workspace/link/../x` (link → /elsewhere/a) really opens `/elsewhere/x`.
 * - `realpathSync` fails on paths that do not exist yet, and a dangling symlink
 *   (`workspace/out → /elsewhere/new-file`) is exactly how a write would escape.
 * So we walk component by component with lstat, following links ourselves, and once a component is
 * missing we append the rest unchanged (nothing on disk can redirect a path that does not exist).
 */
import { lstatSync, readlinkSync } from 'node:fs';
import path from 'node:path';

/** Linux's MAXSYMLINKS (fs/namei.c): past this the kernel answers ELOOP, and so do we. */
export const MAX_SYMLINK_HOPS = 40;

export type RealPathResult =
  | { ok: true; path: string; exists: boolean }
  | { ok: false; reason: 'too_many_symlinks'; at: string };

/** Expands `~` and `~/…` (tools and people both write them); `~user` is left alone. */
export function expandHome(input: string, home: string): string {
  if (input === '~') return home;
  if (input.startsWith('~/')) return path.join(home, input.slice(2));
  return input;
}

/** Resolves `input` (absolute, or relative to `baseDir`) to its physical location. */
export function resolveRealPath(input: string, baseDir: string): RealPathResult {
  const start = path.isAbsolute(input) ? input : `${baseDir}/${input}`;
  let pending = splitComponents(start);
  let current = '/';
  let hops = 0;
  while (pending.length > 0) {
    const name = pending.shift() as string;
    if (name === '.') continue;
    if (name === '..') {
      current = path.dirname(current);
      continue;
    }
    const next = current === '/' ? `/${name}` : `${current}/${name}`;
    let isLink: boolean;
    try {
      isLink = lstatSync(next).isSymbolicLink();
    } catch (error) {
      // Missing (or unreadable) from here on: nothing on disk can redirect the rest.
      if (isFsError(error, 'ELOOP')) return { ok: false, reason: 'too_many_symlinks', at: next };
      return { ok: true, path: path.resolve(next, ...pending), exists: false };
    }
    if (!isLink) {
      current = next;
      continue;
    }
    hops += 1;
    if (hops > MAX_SYMLINK_HOPS) return { ok: false, reason: 'too_many_symlinks', at: next };
    let target: string;
    try {
      target = readlinkSync(next);
    } catch {
      // Replaced between lstat and readlink (something is renaming it): look at it again. The hop
      // already counted bounds the retries, so a path that keeps changing ends as too_many_symlinks.
      pending.unshift(name);
      continue;
    }
    if (path.isAbsolute(target)) current = '/';
    pending = [...splitComponents(target), ...pending];
  }
  return { ok: true, path: current, exists: true };
}

function splitComponents(p: string): string[] {
  return p.split('/').filter((part) => part.length > 0);
}

function isFsError(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === code;
}

/** True when `child` is `parent` or below it. Both must be normalised absolute paths. */
export function isWithin(child: string, parent: string, caseInsensitive = false): boolean {
  const c = caseInsensitive ? child.toLowerCase() : child;
  const p = caseInsensitive ? parent.toLowerCase() : parent;
  if (p === '/') return true;
  return c === p || c.startsWith(`${p}/`);
}

/** Resolves a configured root; a root that does not exist yet still gets its ancestors' real location. */
export function realRoot(root: string, home: string): string | undefined {
  const result = resolveRealPath(expandHome(root, home), '/');
  return result.ok ? result.path : undefined;
}
