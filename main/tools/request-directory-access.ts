import { z } from 'zod';
import type { Executor } from '../core/capabilities/capability.js';
import { FermixError } from '../core/errors.js';
import { defineBuiltin } from './define-builtin.js';
import { lazySchema } from './lazy-schema.js';
import { pathContext, servicesOf, stringArg } from './tool-services.js';

export const requestDirectoryAccessInput = lazySchema(() =>
  z.object({
    path: z.string().min(1).describe('The directory the sandbox denied and the task needs.'),
    reason: z.string().min(1).describe('A short, honest reason the task needs it; shown to the owner.'),
  }),
);

/**
 * Parks the call until the owner answers (≤ 60 s) so the turn resumes by itself. A denial or an
 * expiry is a result, not an error: the tool worked, and the model must carry on without the folder.
 */
const executeRequestDirectoryAccess: Executor = async (args, context) => {
  const requested = stringArg(args, 'path', 'invalid_arguments', 'request_directory_access');
  const reason = stringArg(args, 'reason', 'invalid_arguments', 'request_directory_access');
  const { sandbox, directoryAccess } = servicesOf(context, 'sandbox', 'directoryAccess');
  if (context.interactive === false) {
    // Nobody is there to answer within the 60 s (a piped `fermix capabilities call`, a job): say so now.
    throw new FermixError({
      code: 'not_attended',
      message: 'Nobody can answer a folder-access request in this run.',
      hint: 'Report that the folder is outside the sandbox; the owner can run `fermix grant path <dir>`.',
      data: { origin: context.origin },
    });
  }
  const { outcome, path } = await directoryAccess.request({
    path: requested,
    reason,
    conversationId: context.conversationId,
    trust: context.trust,
    origin: context.origin,
    baseDir: pathContext(context, sandbox).baseDir ?? sandbox.workspace,
    signal: context.signal,
  });
  const text = {
    granted: `Access granted: ${path} was added to [sandbox] allowed_roots. Retry the operation that was refused.`,
    denied: `The owner denied access to ${path}. Do not ask again for it in this conversation; continue without it or explain what you could not do.`,
    expired: `Nobody answered the request for ${path} within 60 seconds. Tell the owner what you need and that they can run \`fermix grant path ${path}\`.`,
  }[outcome];
  return { text, data: { outcome, path, granted: outcome === 'granted' } };
};

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
  executor: executeRequestDirectoryAccess,
});
