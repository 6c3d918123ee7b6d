import { z } from 'zod';
import { defineBuiltin } from './define-builtin.js';

export const contentSearchInput = z.object({
  pattern: z.string().min(1).describe('Text to search for, or a regular expression when regex is true.'),
  path: z.string().optional().describe('Root directory or single file to search (default: the working directory).'),
  regex: z.boolean().default(false).describe('Interpret pattern as a regular expression (default false: literal text).'),
  max_results: z.number().int().min(1).max(1000).default(200).describe('Maximum matching lines to return (default 200, 1-1000).'),
  timeout_ms: z.number().int().min(1).max(120_000).default(30_000).describe('Give up after this many milliseconds (default 30000, max 120000).'),
});

export const contentSearchOutput = z.object({
  matches: z.array(
    z.object({
      path: z.string().describe('Absolute path of the file.'),
      line: z.number().int().min(1).describe('1-based line number.'),
      text: z.string().describe('The matching line, trailing whitespace trimmed.'),
    }),
  ),
  truncated: z.boolean().describe('True when max_results cut the list short.'),
});

export const contentSearch = defineBuiltin({
  name: 'content_search',
  description: 'Regex-search file contents across the workspace without shelling out to grep. Binary files are skipped.',
  policy_class: 'read_only',
  category: 'file',
  input: contentSearchInput,
  output: contentSearchOutput,
  when_to_use: 'Find where a word, identifier or pattern appears inside files.',
  examples: [
    { args: { pattern: 'TODO', path: 'src' }, note: 'find TODO comments' },
    { args: { pattern: 'export (async )?function \\w+Job', regex: true }, note: 'regex search' },
  ],
  failure_modes: [
    { tag: 'invalid_regex', description: 'the regex pattern did not compile' },
    { tag: 'timeout', description: 'the search exceeded timeout_ms' },
    { tag: 'not_found', description: 'no matches; returns an empty match list' },
  ],
  scope_requirements: ['fs:read'],
});
