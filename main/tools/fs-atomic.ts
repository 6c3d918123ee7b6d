/**
 * File helpers shared by file_read, file_write, file_edit, content_search and send_attachment.
 *
 * - Reads and writes act on the object the sandbox verified, not on a path string that may have been
 *   swapped since the check (sandbox/verified-open.ts explains how, and what differs on macOS).
 * - Writes are atomic: a temp file created O_EXCL | O_NOFOLLOW in the verified folder, fsync,
 *   chmod, rename. A crash or a full disk leaves either the old file or the new one, never half of
 *   each, readers never see a torn file, and the temp file is removed on every failure.
 */
import { randomBytes } from 'node:crypto';
import { constants, promises as fs } from 'node:fs';
import path from 'node:path';
import { FermixError } from '../core/errors.js';
import { notRegularFile, openVerifiedDir, openVerifiedFile, type PathGate, type VerifiedFile } from '../sandbox/verified-open.js';

export type { PathGate, VerifiedFile } from '../sandbox/verified-open.js';

export interface AtomicWriteOptions {
  /** Permission bits for the result; default: those of the file being replaced, else 0666 minus umask. */
  mode?: number;
  /** Create missing folders, each inside its verified parent (default false). */
  mkdir?: boolean;
}

const TEMP_FLAGS = constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW | constants.O_WRONLY;

/**
 * Writes `target` (a path the gate allowed) atomically inside its verified folder. Throws
 * sandbox_denied when the folder really opened is not writable, or the filesystem's errno error.
 */
export async function writeFileAtomic(target: string, data: string | Buffer, gate: PathGate, options: AtomicWriteOptions = {}): Promise<void> {
  const name = path.basename(target);
  const dir = await openVerifiedDir(path.dirname(target), name, gate, options.mkdir === true);
  const temp = `${dir.base}/.${name}.fermix-${randomBytes(6).toString('hex')}.tmp`;
  const final = `${dir.base}/${name}`;
  let created = false;
  try {
    const existing = await fs.lstat(final).catch(() => undefined);
    if (existing?.isDirectory()) throw Object.assign(new Error(`${target} is a folder`), { code: 'EISDIR' });
    // Replacing a FIFO, socket or device with a file would silently break whatever uses it.
    if (existing !== undefined && !existing.isFile() && !existing.isSymbolicLink()) throw notRegularFile(target, existing);
    const mode = options.mode ?? (existing?.isFile() ? existing.mode & 0o7777 : undefined);
    const handle = await fs.open(temp, TEMP_FLAGS, 0o666);
    created = true;
    let ino: number;
    try {
      await handle.writeFile(data);
      await handle.sync();
      if (mode !== undefined) await handle.chmod(mode);
      ino = (await handle.stat()).ino;
    } finally {
      await handle.close();
    }
    await fs.rename(temp, final);
    created = false;
    await dir.handle.sync().catch(() => undefined); // the rename itself durable; not every filesystem allows it
    // The result: our file under its name, in a folder that is still where writing is allowed.
    const result = await fs.lstat(final);
    if (result.ino !== ino) throw Object.assign(new Error(`${target} was replaced during the write`), { code: 'EBUSY' });
    await dir.reverify(name);
  } catch (error) {
    if (created) await fs.rm(temp, { force: true }).catch(() => undefined);
    throw error;
  } finally {
    await dir.handle.close().catch(() => undefined);
  }
}

/**
 * Opens a checked real path for reading and verifies the opened object (sandbox_denied,
 * invalid_path for a folder, not_regular_file for a FIFO, socket or device; errno errors else).
 * `access: 'write'` when the contents are read to be rewritten (file_edit).
 */
export async function openForRead(realPath: string, gate: PathGate, access: 'read' | 'write' = 'read'): Promise<VerifiedFile> {
  return openVerifiedFile(realPath, gate, access);
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
    ENOTDIR: 'a part of the path is a file or a symbolic link, not a folder',
    EISDIR: 'the path is a folder',
    ELOOP: 'the path ends in a symbolic link',
    EBUSY: 'another process replaced the file during the write',
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
