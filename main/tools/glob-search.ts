import { z } from 'zod';
import { defineBuiltin } from './define-builtin.js';

export const globSearchInput = z.object({
  pattern: z.string().min(1).describe('Glob pattern relative to path, such as **/*.ts or docs/*.md.'),
  path: z.string().optional().describe('Root directory to search (default: the working directory).'),
  max_results: z.number().int().min(1).max(1000).default(200).describe('Maximum paths to return (default 200, 1-1000).'),
});

export const globSearchOutput = z.array(z.string().describe('Absolute path of a matching file.'));

export const globSearch = defineBuiltin({
  name: 'glob_search',
  description: 'Pattern-glob the workspace for files. Dotfiles are included and every match is sandbox-filtered.',
  policy_class: 'read_only',
  category: 'file',
  input: globSearchInput,
  output: globSearchOutput,
  when_to_use: 'Find files by name or extension when you do not know their exact paths.',
  examples: [
    { args: { pattern: '**/*.test.ts', path: 'src' }, note: 'find test files' },
    { args: { pattern: '*.pdf', path: 'Documents', max_results: 20 }, note: 'list a few PDFs' },
  ],
  failure_modes: [
    { tag: 'missing_pattern', description: 'pattern is absent or blank' },
    { tag: 'invalid_path', description: 'path is invalid or outside the sandbox roots' },
    { tag: 'not_found', description: 'no file matched; returns an empty list' },
  ],
  scope_requirements: ['fs:read'],
});
