import { z } from 'zod';
import { defineBuiltin } from './define-builtin.js';

export const requestDirectoryAccessInput = z.object({
  path: z.string().min(1).describe('The directory the sandbox denied and the task needs.'),
  reason: z.string().min(1).describe('A short, honest reason the task needs it; shown to the owner.'),
});

export const requestDirectoryAccess = defineBuiltin({
  name: 'request_directory_access',
  description:
    'Ask the owner, in chat, to approve access to a directory the sandbox currently denies; the owner confirms with a single-use 60-second /confirm token and the grant persists to [sandbox] allowed_roots. Unsafe roots ($HOME, ~/.ssh, OS roots) are refused before the owner is asked.',
  policy_class: 'external_api',
  category: 'system',
  input: requestDirectoryAccessInput,
  when_to_use: 'A file or shell operation was denied as outside the sandbox roots and the task truly needs that directory; then stop and wait for the owner.',
  examples: [
    { args: { path: '/home/ana/projects/invoices', reason: 'The report you asked for reads the invoices in this folder.' }, note: 'ask for one project directory' },
  ],
  failure_modes: [
    { tag: 'not_attended', description: 'no attended owner conversation can approve (guest, scheduled or delegated run)' },
    { tag: 'unsafe_root', description: 'the path is one the sandbox never grants ($HOME, ~/.ssh, OS roots)' },
    { tag: 'already_allowed', description: 'the path is already reachable; retry the operation' },
  ],
  scope_requirements: ['channel:send'],
});
