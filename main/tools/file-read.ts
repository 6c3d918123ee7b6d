import { z } from 'zod';
import { defineBuiltin } from './define-builtin.js';

export const fileReadInput = z.object({
  path: z.string().min(1).describe('Path of the file to read, absolute or relative to the working directory.'),
  offset: z.number().int().min(1).default(1).describe('1-based line number to start reading from (default 1).'),
  limit: z.number().int().min(1).optional().describe('Maximum number of lines to return (default: to the end of the file).'),
});

export const fileRead = defineBuiltin({
  name: 'file_read',
  description: 'Read a UTF-8 text file, gated by the sandbox read-path check. Supports a line offset and limit for large files.',
  policy_class: 'read_only',
  category: 'file',
  input: fileReadInput,
  when_to_use: 'Read the contents of a file at a known path, optionally a window of lines.',
  examples: [
    { args: { path: 'README.md', limit: 80 }, note: 'read the top of a file' },
    { args: { path: 'src/server.ts', offset: 120, limit: 40 }, note: 'read lines 120-159' },
  ],
  failure_modes: [
    { tag: 'missing_path', description: 'path is absent or blank' },
    { tag: 'not_found', description: 'the file does not exist' },
    { tag: 'invalid_path', description: 'path contains null bytes' },
    { tag: 'sandbox_denied', description: 'Path is outside the sandbox roots (or protected, or under a blocked root)' },
  ],
  scope_requirements: ['fs:read'],
});
