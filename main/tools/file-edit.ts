import { z } from 'zod';
import { defineBuiltin } from './define-builtin.js';

export const fileEditInput = z.object({
  path: z.string().min(1).describe('Path of the file to edit.'),
  old_string: z.string().min(1).describe('Exact text to replace; it must occur exactly once in the file.'),
  new_string: z.string().describe('Replacement text (may be empty to delete old_string).'),
});

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
    { tag: 'sandbox_denied', description: 'the path is outside the sandbox roots; the message suggests request_directory_access' },
  ],
  scope_requirements: ['fs:read', 'fs:write'],
});
