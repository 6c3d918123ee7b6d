/**
 * Opening exactly what the path gate allowed (hardening issue, item 2).
 *
 * The gate (path-policy.ts) decides on a path *string*; the kernel opens whatever that string names
 * a moment later. A folder swapped for a symlink in between (`race/` → `~/.ssh`) redirected reads and
 * writes, and O_NOFOLLOW guards only the last component. Node has no openat/renameat, so we decide
 * on the *descriptor* instead:
 * - reads open with O_NOFOLLOW | O_NONBLOCK (a FIFO opens at once instead of pinning a libuv pool
 *   thread until a writer appears), ask the kernel where the descriptor really is
 *   (`readlink /proc/self/fd/N`), run the policy on that path and fstat before reading a byte;
 * - writes open the parent folder the same way and verify it, then create, rename and remove
 *   entries through `/proc/self/fd/<dirfd>/<name>`: the magic link pins the verified folder object,
 *   so a later swap of any component of the original path cannot move the write elsewhere.
 *
 * macOS has no /proc and Node cannot call fcntl(F_GETPATH). There we fall back to comparing the
 * descriptor's device and inode with a fresh lstat of the checked path, and writes go through the
 * path string between two such checks of the folder. That catches a swap that is still in place
 * when we look, but not one undone in between: a documented, narrower guarantee than on Linux.
 */
import { constants, existsSync, promises as fs, type Stats } from 'node:fs';
import path from 'node:path';
import { FermixError } from '../core/errors.js';
import type { Access, CheckContext, PathPolicy } from './path-policy.js';
import { resolveRealPath } from './real-path.js';

/** The policy and the caller's check context (base dir, request cwd), as the tools hold them. */
export interface PathGate {
  policy: PathPolicy;
  context?: CheckContext;
}

export const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
const DIR_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;

/** Descriptor paths work: Linux with /proc mounted (containers without it take the fallback). */
export const FD_PATHS = process.platform === 'linux' && existsSync('/proc/self/fd');

const DELETED = ' (deleted)';

/** `/proc/self/fd/N`: opening `<this>/<name>` looks `name` up in the very folder N refers to. */
export function fdLink(handle: fs.FileHandle): string {
  return `/proc/self/fd/${handle.fd}`;
}

function errno(code: string, message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code });
}

function changedWhileOpening(shown: string, actual: string): FermixError {
  return new FermixError({
    code: 'sandbox_denied',
    message: `Path changed while it was being opened: ${shown} (now ${actual}).`,
    hint: 'Something is renaming folders or symlinks along this path; stop it (check running shell commands with `ps`), then try again.',
    data: { reason: 'path_changed', path: shown, actual },
  });
}

export function notRegularFile(shown: string, stat: Stats): FermixError {
  const what = stat.isFIFO() ? 'a FIFO (named pipe)' : stat.isSocket() ? 'a socket' : stat.isCharacterDevice() || stat.isBlockDevice() ? 'a device' : 'not a regular file';
  return new FermixError({
    code: 'not_regular_file',
    message: `${shown} is ${what}, not a regular file.`,
    hint: 'File tools read and write regular files only; use glob_search to find the file you meant.',
    data: { path: shown },
  });
}

/**
 * Where the descriptor really is, checked against the policy. `entry` checks `<folder>/<entry>`
 * instead of the folder itself (writes: the folder may be a root's parent, the entry may not be).
 * Returns the descriptor's path.
 */
async function verifyDescriptor(handle: fs.FileHandle, shown: string, gate: PathGate, access: Access, entry?: string): Promise<string> {
  const actual = await fs.readlink(fdLink(handle));
  if (!actual.startsWith('/')) throw errno('ENXIO', `${shown} is not on a filesystem (${actual})`); // pipe:[…], anon_inode:…
  const candidates = [actual];
  if (actual.endsWith(DELETED)) {
    // Unlinked after the open, or a name that really ends so: check both spellings, refuse if it is gone.
    if ((await handle.stat()).nlink === 0) throw errno('ENOENT', `${shown} was removed while being opened`);
    candidates.push(actual.slice(0, -DELETED.length));
  }
  for (const p of candidates) {
    const resolved = resolveRealPath(p, '/');
    // The kernel's path has no symlinks; if resolving it now meets one, a swap is under way.
    if (resolved.ok && resolved.exists && resolved.path !== p) throw changedWhileOpening(shown, p);
    const target = entry === undefined ? p : path.join(p, entry);
    if (access === 'read') gate.policy.checkRead(target, gate.context);
    else gate.policy.checkWrite(target, gate.context);
  }
  return actual;
}

/** Fallback without descriptor paths: the object at `checked` right now must be the one we opened. */
async function verifyByInode(handle: fs.FileHandle, checked: string, gate: PathGate, access: Access, entry?: string): Promise<string> {
  const [mine, there] = await Promise.all([handle.stat(), fs.lstat(checked)]);
  if (mine.dev !== there.dev || mine.ino !== there.ino) throw changedWhileOpening(checked, checked);
  const resolved = resolveRealPath(checked, '/');
  if (resolved.ok && resolved.path !== checked) throw changedWhileOpening(checked, resolved.path);
  const target = entry === undefined ? checked : path.join(checked, entry);
  if (access === 'read') gate.policy.checkRead(target, gate.context);
  else gate.policy.checkWrite(target, gate.context);
  return checked;
}

export interface VerifiedFile {
  handle: fs.FileHandle;
  stat: Stats;
  /** The descriptor's real path (what was really opened). */
  path: string;
}

/**
 * Opens `checked` (a path the gate already allowed) for reading and re-checks what was opened.
 * Throws sandbox_denied (the opened object is not allowed), invalid_path (a folder),
 * not_regular_file (FIFO, socket, device), or the open's errno error (ENOENT, ELOOP, …).
 */
export async function openVerifiedFile(checked: string, gate: PathGate, access: Access = 'read'): Promise<VerifiedFile> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(checked, READ_FLAGS);
  } catch (error) {
    // A socket cannot be opened at all (ENXIO): it is "not a regular file", not a missing one.
    if ((error as NodeJS.ErrnoException).code === 'ENXIO') {
      const stat = await fs.lstat(checked).catch(() => undefined);
      if (stat !== undefined) throw notRegularFile(checked, stat);
    }
    throw error;
  }
  try {
    const real = FD_PATHS ? await verifyDescriptor(handle, checked, gate, access) : await verifyByInode(handle, checked, gate, access);
    const stat = await handle.stat();
    if (stat.isDirectory()) {
      throw new FermixError({ code: 'invalid_path', message: `${checked} is a folder, not a file.`, hint: 'Use glob_search to list a folder, then pass one of its files.', data: { path: checked } });
    }
    if (!stat.isFile()) throw notRegularFile(checked, stat);
    return { handle, stat, path: real };
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw error;
  }
}

export interface VerifiedDir {
  handle: fs.FileHandle;
  /** The folder's real path when it was verified. */
  path: string;
  /** Prefix for entries inside the verified folder: `/proc/self/fd/N` on Linux, else the path. */
  base: string;
  /** Checks again that the folder is still where writing `entry` is allowed (after a rename). */
  reverify(entry: string): Promise<string>;
}

/**
 * Opens folder `dir` and verifies that creating `entry` in it is allowed. With `mkdir`, missing
 * folders are created one by one, each inside its verified parent (never through the path string).
 */
export async function openVerifiedDir(dir: string, entry: string, gate: PathGate, mkdir: boolean): Promise<VerifiedDir> {
  const handle = await openDirCreating(dir, gate, mkdir);
  try {
    const verify = (name: string) => (FD_PATHS ? verifyDescriptor(handle, dir, gate, 'write', name) : verifyByInode(handle, dir, gate, 'write', name));
    const real = await verify(entry);
    return { handle, path: real, base: FD_PATHS ? fdLink(handle) : real, reverify: verify };
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw error;
  }
}

async function openDirCreating(dir: string, gate: PathGate, mkdir: boolean): Promise<fs.FileHandle> {
  try {
    return await fs.open(dir, DIR_FLAGS);
  } catch (error) {
    const parentPath = path.dirname(dir);
    if (!mkdir || (error as NodeJS.ErrnoException).code !== 'ENOENT' || parentPath === dir) throw error;
    const name = path.basename(dir);
    const parent = await openVerifiedDir(parentPath, name, gate, true);
    try {
      await fs.mkdir(`${parent.base}/${name}`).catch((e: NodeJS.ErrnoException) => {
        if (e.code !== 'EEXIST') throw e;
      });
      return await fs.open(`${parent.base}/${name}`, DIR_FLAGS);
    } finally {
      await parent.handle.close();
    }
  }
}
