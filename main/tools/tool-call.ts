import { z } from 'zod';
import type { Executor } from '../core/capabilities/capability.js';
import { FermixError } from '../core/errors.js';
import { defineBuiltin } from './define-builtin.js';
import { lazySchema } from './lazy-schema.js';

export const toolCallInput = lazySchema(() =>
  z.object({
    name: z.string().min(1).describe('Exact name of the deferred tool to invoke.'),
    arguments: z.record(z.string(), z.unknown()).describe("Arguments for that tool, matching its schema (see tool_describe)."),
  }),
);

/**
 * Runs only for MALFORMED calls: a well-formed `tool_call {name, arguments}` is unwrapped by the loop
 * and the invoke boundary (unwrapToolCall) before policy, audit and dispatch, so this executor never
 * sees it (reference §2.2). Its job is to tell the model exactly how to fix the call.
 */
export const malformedToolCall: Executor = async (args) => {
  const name = typeof args.name === 'string' ? args.name.trim() : '';
  const inner = args.arguments;
  const problems: string[] = [];
  if (name === '') problems.push('`name` is missing or blank');
  if (inner === null || typeof inner !== 'object' || Array.isArray(inner)) {
    problems.push(typeof inner === 'string' ? '`arguments` is a string that is not a JSON object' : '`arguments` is not an object');
  }
  if (name === 'tool_call') problems.push('tool_call cannot call itself more than four levels deep');
  throw new FermixError({
    code: 'malformed_call',
    message: `tool_call could not be unwrapped: ${problems.join('; ') || 'the call has an unexpected shape'}.`,
    hint: 'Call it as {"name": "<exact tool name>", "arguments": {…}} with the tool\'s own arguments as an object, or call the tool directly by its name; tool_describe shows its parameters.',
    data: { name: name || null },
  });
};

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
  executor: malformedToolCall,
  metadata: { deferral_bridge: true, secret_fields: ['arguments'] },
});
