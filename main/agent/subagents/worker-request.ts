/**
 * What every worker of a batch is offered: the registry filtered by the parent's trust and the
 * narrowed classes, the worker role, and without `subagents` itself (a worker never delegates; a call
 * that reaches the executor anyway through tool_call is refused there with `recursion`). Computed once
 * per batch: the whole batch runs under one policy.
 */
import type { CapabilityRegistry, PolicyClass, Role, Trust } from '../../core/capabilities/index.js';
import { presentTools, toSdkTools } from '../deferral.js';
import type { PreparedRequest } from '../loop/run-turn.js';
import { offerable } from '../request-builder.js';
import { buildRuntimePrompt } from '../runtime-prompt.js';
import { WORKER_RULES } from './worker-prompt.js';

/**
 * The channel ports (send_attachment, react, folder requests) and the delegation port itself are the
 * parent's: a worker has no chat to reply to and no person to ask (reference §2.9 "stripped of reply_fn,
 * channel, … conversation key").
 */
const PARENT_ONLY_SERVICES = ['attachments', 'reactions', 'directoryAccess', 'subagents'];

export function prepareWorkerRequest(input: { registry: CapabilityRegistry; trust: Trust; classes: readonly PolicyClass[]; role: Role; services: Record<string, unknown>; deferral: boolean; now: Date }): PreparedRequest {
  const visible = input.registry
    .list_for({ trust: input.trust, policy_classes: input.classes })
    .filter((cap) => cap.name !== 'subagents' && offerable(cap, input.trust, 'subagent', input.role));
  const presentation = presentTools(visible, input.deferral);
  const byName = new Map(visible.map((cap) => [cap.name, cap]));
  const services = Object.fromEntries(Object.entries(input.services).filter(([key]) => !PARENT_ONLY_SERVICES.includes(key)));
  return {
    system: `${buildRuntimePrompt({ now: input.now, presentation, visible, plugins: [], skills: [] })}\n${WORKER_RULES}`,
    tools: toSdkTools(presentation.advertised),
    services: {
      ...services,
      registry: { find: (name: string) => byName.get(name), list: () => visible },
      deferredTools: () => presentation.deferred,
    },
  };
}
