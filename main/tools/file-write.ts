import { promises as fs } from 'node:fs';
import { z } from 'zod';
import type { Executor } from '../core/capabilities/capability.js';
import { FermixError } from '../core/errors.js';
import { defineBuiltin } from './define-builtin.js';
import { lazySchema } from './lazy-schema.js';
import { errnoOf, writeFailed, writeFileAtomic } from './fs-atomic.js';
import { pathContext, servicesOf, stringArg } from './tool-services.js';

export const fileWriteInput = lazySchema(() =>
  z.object({
    path: z.string().min(1).describe('Path of the file to write; an existing file is overwritten.'),
    content: z.string().describe('The complete new contents of the file.'),
    mkdir: z.boolean().default(true).describe('Create missing parent directories (default true).'),
  }),
);

const executeFileWrite: Executor = async (args, context) => {
  const input = stringArg(args, 'path', 'missing_parameters', 'file_write');
  if (typeof args.content !== 'string') {
    throw new FermixError({ code: 'missing_parameters', message: 'file_write needs `content` as a string.', hint: 'Call file_write again with the complete file contents in `content` ("" for an empty file).', data: { field: 'content' } });
  }
  const content = args.content;
  const mkdir = args.mkdir !== false;
  const { sandbox } = servicesOf(context, 'sandbox');
  // Throws invalid_path (NUL, empty) or sandbox_denied, whose hint names `fermix grant path <dir>`.
  const gate = { policy: sandbox.policy, context: pathContext(context, sandbox) };
  const real = sandbox.policy.checkWrite(input, gate.context);
  try {
    if ((await fs.stat(real)).isDirectory()) {
      throw new FermixError({ code: 'invalid_path', message: `${real} is a folder, not a file.`, hint: 'Pass the path of a file inside it.', data: { path: real } });
    }
  } catch (error) {
    if (!['ENOENT', 'ENOTDIR'].includes(errnoOf(error) ?? '')) throw error instanceof FermixError ? error : writeFailed(real, error);
  }
  try {
    // The folder is opened and verified first; missing folders are created one by one inside it.
    await writeFileAtomic(real, content, gate, { mkdir });
  } catch (error) {
    throw error instanceof FermixError ? error : writeFailed(real, error);
  }
  const bytes = Buffer.byteLength(content, 'utf8');
  return { text: `Wrote ${bytes} bytes to ${real}`, data: { path: real, bytes } };
};

export const fileWrite = defineBuiltin({
  name: 'file_write',
  description: 'Write a file, gated by the sandbox write-path check. Creates the file if needed and overwrites it otherwise.',
  policy_class: 'read_write',
  category: 'file',
  input: fileWriteInput,
  when_to_use: 'Create a file or replace its full contents; use file_edit to change part of an existing file.',
  examples: [
    { args: { path: 'notes/todo.md', content: '# TODO\n- renew passport\n' }, note: 'write a complete file' },
  ],
  failure_modes: [
    { tag: 'missing_parameters', description: 'path or content is absent' },
    { tag: 'invalid_path', description: 'path is blank or contains null bytes' },
    { tag: 'sandbox_denied', description: 'the path is outside the sandbox roots; the message suggests `fermix grant path <dir>`' },
    { tag: 'write_failed', description: 'the filesystem write failed' },
    { tag: 'not_regular_file', description: 'the path is a FIFO, socket or device; it is not replaced' },
  ],
  scope_requirements: ['fs:write'],
  executor: executeFileWrite,
});
