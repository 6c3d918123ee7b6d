/**
 * File helpers shared by file_read, file_write, file_edit, content_search and send_attachment.
 *
 * - Writes are atomic: a temp file in the same folder, fsync, chmod, rename. A crash or a full disk
 *   leaves either the old file or the new one, never half of each, and readers never see a torn file.
 * - Reads open the sandbox-checked real path with O_NOFOLLOW, so a symlink swapped in after the check
 *   cannot redirect the read (the final component, at least; the folders were resolved by the gate).
 */
import { randomBytes } from 'node:crypto';
import { constants, promises as fs } from 'node:fs';
import path from 'node:path';
import { FermixError } from '../core/errors.js';

export interface AtomicWriteOptions {
  /** Permission bits for the result; default: those of the file being replaced, else 0666 minus umask. */
  mode?: number;
}

export async function writeFileAtomic(target: string, data: string | Buffer, options: AtomicWriteOptions = {}): Promise<void> {
  const temp = path.join(path.dirname(target), `.${path.basename(target)}.fermix-${randomBytes(6).toString('hex')}.tmp`);
  let existingMode: number | undefined;
  try {
    existingMode = (await fs.stat(target)).mode & 0o7777;
  } catch {
    existingMode = undefined;
  }
  const mode = options.mode ?? existingMode;
  // 'wx': never reuse or follow anything already at the temp name.
  const handle = await fs.open(temp, 'wx', 0o666);
  try {
    try {
      await handle.writeFile(data);
      await handle.sync();
      if (mode !== undefined) await handle.chmod(mode);
    } finally {
      await handle.close();
    }
    await fs.rename(temp, target);
  } catch (error) {
    await fs.rm(temp, { force: true }).catch(() => undefined);
    throw error;
  }
}

/** Opens a checked real path for reading, refusing a symlink at the last component. */
export async function openForRead(realPath: string): Promise<fs.FileHandle> {
  return fs.open(realPath, constants.O_RDONLY | constants.O_NOFOLLOW);
}

export function errnoOf(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null ? ((error as NodeJS.ErrnoException).code ?? undefined) : undefined;
}

/** `not_found` for a path the gate allowed but that is not there. */
export function notFoundError(shown: string, tool: string): FermixError {
  return new FermixError({
    code: 'not_found',
    message: `File not found: ${shown}.`,
    hint: `Check the path; glob_search can find the file by name (${tool} takes paths relative to the working directory).`,
    data: { path: shown },
  });
}

/** A filesystem failure during a write, with the OS reason in one sentence. */
export function writeFailed(shown: string, error: unknown): FermixError {
  const code = errnoOf(error);
  const why: Record<string, string> = {
    ENOSPC: 'the disk is full',
    EDQUOT: 'the disk quota is exhausted',
    EACCES: 'permission denied by the filesystem',
    EPERM: 'the operation is not permitted by the filesystem',
    EROFS: 'the filesystem is read-only',
    ENOENT: 'its folder does not exist',
    ENOTDIR: 'a part of the path is a file, not a folder',
    EISDIR: 'the path is a folder',
    ELOOP: 'the path ends in a symbolic link',
  };
  return new FermixError({
    code: 'write_failed',
    message: `Could not write ${shown}: ${(code && why[code]) ?? (error instanceof Error ? error.message : String(error))}.`,
    hint: code === 'ENOENT' ? 'Pass `mkdir: true` to create missing folders.' : 'Fix the cause (free space, permissions), or write somewhere else in the workspace.',
    data: { path: shown, errno: code },
    cause: error,
  });
}

/** NUL in the first 4 KiB: the usual (and Fermix's) binary test. */
export function looksBinary(head: Buffer): boolean {
  return head.subarray(0, 4096).includes(0);
}
