import { z } from 'zod';
import { defineBuiltin } from './define-builtin.js';

export const fileWriteInput = z.object({
  path: z.string().min(1).describe('Path of the file to write; an existing file is overwritten.'),
  content: z.string().describe('The complete new contents of the file.'),
  mkdir: z.boolean().default(true).describe('Create missing parent directories (default true).'),
});

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
  ],
  scope_requirements: ['fs:write'],
});
