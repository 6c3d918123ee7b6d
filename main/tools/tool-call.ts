import { z } from 'zod';
import { defineBuiltin } from './define-builtin.js';

export const toolCallInput = z.object({
  name: z.string().min(1).describe('Exact name of the deferred tool to invoke.'),
  arguments: z.record(z.string(), z.unknown()).describe("Arguments for that tool, matching its schema (see tool_describe)."),
});

export const toolCall = defineBuiltin({
  name: 'tool_call',
  description:
    "Invoke a deferred tool by name; the loop unwraps it before policy and dispatch, so the real tool's own policy class is enforced. Direct calls by name also work.",
  policy_class: 'read_only',
  category: 'system',
  input: toolCallInput,
  when_to_use: 'Call a deferred plugin or MCP tool found in the Plugins list or with tool_search.',
  examples: [
    { args: { name: 'github_create_issue', arguments: { repo: 'ana/site', title: 'Broken link on /about' } }, note: 'call a deferred plugin tool' },
  ],
  failure_modes: [{ tag: 'malformed_call', description: 'name is missing or blank, or arguments is not an object' }],
  // A well-formed call is unwrapped and audited under the real tool's own audit behaviour; the bridge's
  // copy of the arguments must not bypass that tool's redaction.
  audit_behavior: 'redact_args',
  metadata: { deferral_bridge: true, secret_fields: ['arguments'] },
});
