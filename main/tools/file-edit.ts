import { z } from 'zod';
import type { Executor } from '../core/capabilities/capability.js';
import { FermixError } from '../core/errors.js';
import { defineBuiltin } from './define-builtin.js';
import { lazySchema } from './lazy-schema.js';
import { errnoOf, notFoundError, openForRead, writeFailed, writeFileAtomic } from './fs-atomic.js';
import { pathContext, servicesOf, stringArg } from './tool-services.js';

/** Occurrences of `needle`, overlapping ones included ("aa" in "aaa" is ambiguous, so it counts twice). */
export function countOccurrences(haystack: Buffer, needle: Buffer): { count: number; first: number } {
  let count = 0;
  let first = -1;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1)) {
    if (first === -1) first = at;
    count += 1;
  }
  return { count, first };
}

/**
 * Byte-level replacement: the rest of the file is copied untouched, even bytes that are not valid
 * UTF-8, and the mode (executable bits included) is kept by writeFileAtomic.
 */
const executeFileEdit: Executor = async (args, context) => {
  const input = stringArg(args, 'path', 'invalid_path', 'file_edit');
  const oldString = stringArg(args, 'old_string', 'invalid_arguments', 'file_edit');
  if (typeof args.new_string !== 'string') {
    throw new FermixError({ code: 'invalid_arguments', message: 'file_edit needs `new_string` as a string ("" deletes old_string).', hint: 'Call file_edit again with new_string set.', data: { field: 'new_string' } });
  }
  const { sandbox } = servicesOf(context, 'sandbox');
  const gate = { policy: sandbox.policy, context: pathContext(context, sandbox) };
  const real = sandbox.policy.checkWrite(input, gate.context);
  let before: Buffer;
  let mode: number;
  try {
    // Read under the write check: what is read here is what gets rewritten.
    const { handle, stat } = await openForRead(real, gate, 'write');
    try {
      mode = stat.mode & 0o7777;
      before = await handle.readFile();
    } finally {
      await handle.close();
    }
  } catch (error) {
    if (error instanceof FermixError) throw error; // sandbox_denied, invalid_path (folder), not_regular_file
    if (errnoOf(error) === 'ENOENT' || errnoOf(error) === 'ENOTDIR') throw notFoundError(real, 'file_edit');
    throw new FermixError({ code: 'invalid_path', message: `Cannot read ${real}: ${errnoOf(error) ?? String(error)}.`, hint: 'Check the path and its permissions.', data: { path: real }, cause: error });
  }
  const needle = Buffer.from(oldString, 'utf8');
  const { count, first } = countOccurrences(before, needle);
  if (count === 0) {
    const crlf = before.includes('\r\n') && oldString.includes('\n') && !oldString.includes('\r\n');
    throw new FermixError({
      code: 'not_found',
      message: `old_string was not found in ${real}.`,
      hint: crlf ? 'The file uses CRLF line endings: include the \\r before each \\n in old_string.' : 'Read the file with file_read and copy the exact text, whitespace and indentation included.',
      data: { path: real },
    });
  }
  if (count > 1) {
    throw new FermixError({
      code: 'not_unique',
      message: `old_string is not unique in ${real}: found ${count} occurrences.`,
      hint: 'Include more surrounding lines in old_string so it matches exactly one place.',
      data: { path: real, occurrences: count },
    });
  }
  const after = Buffer.concat([before.subarray(0, first), Buffer.from(args.new_string, 'utf8'), before.subarray(first + needle.length)]);
  try {
    await writeFileAtomic(real, after, gate, { mode });
  } catch (error) {
    throw error instanceof FermixError ? error : writeFailed(real, error);
  }
  const line = before.subarray(0, first).toString('utf8').split('\n').length;
  return { text: `Edited ${real}: replaced 1 occurrence at line ${line} (${before.length} → ${after.length} bytes).`, data: { path: real, line, bytes_before: before.length, bytes_after: after.length } };
};

export const fileEditInput = lazySchema(() =>
  z.object({
    path: z.string().min(1).describe('Path of the file to edit.'),
    old_string: z.string().min(1).describe('Exact text to replace; it must occur exactly once in the file.'),
    new_string: z.string().describe('Replacement text (may be empty to delete old_string).'),
  }),
);

export const fileEdit = defineBuiltin({
  name: 'file_edit',
  description:
    'Replace an exact-string span in a file. The write is atomic (temporary file + rename) and keeps the file mode.',
  policy_class: 'read_write',
  category: 'file',
  input: fileEditInput,
  when_to_use: 'Change one known, unique span of an existing file without rewriting the whole file.',
  examples: [
    {
      args: { path: 'config/app.toml', old_string: 'port = 8080', new_string: 'port = 9090' },
      note: 'replace one unique line',
    },
  ],
  failure_modes: [
    { tag: 'not_found', description: 'old_string does not appear in the file, or the file does not exist' },
    { tag: 'not_unique', description: 'old_string is not unique; found N occurrences' },
    { tag: 'invalid_path', description: 'path is blank or contains null bytes' },
    { tag: 'write_failed', description: 'the atomic replacement failed' },
    { tag: 'not_regular_file', description: 'the path is a FIFO, socket or device' },
    { tag: 'sandbox_denied', description: 'the path is outside the sandbox roots; the message suggests request_directory_access' },
  ],
  scope_requirements: ['fs:read', 'fs:write'],
  executor: executeFileEdit,
});
