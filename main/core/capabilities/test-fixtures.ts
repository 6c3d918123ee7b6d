/**
 * Builders for tests of this folder (not used by product code). Real capabilities, real registry:
 * nothing here fakes our own modules.
 */
import type { Capability, PolicyClass } from './capability.js';
import { groupFor } from './groups.js';

const CATEGORY_BY_CLASS: Record<PolicyClass, string> = {
  read_only: 'file',
  read_write: 'file',
  exec: 'system',
  network: 'web',
  external_api: 'mcp',
  gui_control: 'computer',
};

export function makeCapability(overrides: Partial<Capability> & { name: string }): Capability {
  const policyClass = overrides.policy_class ?? 'read_only';
  const category = overrides.metadata?.category ?? CATEGORY_BY_CLASS[policyClass];
  return {
    description: `Test capability ${overrides.name}.`,
    parameters: { type: 'object', properties: {}, additionalProperties: true },
    kind: 'builtin',
    hidden_from_agent: false,
    policy_class: policyClass,
    group: groupFor(overrides.name, category),
    scope_requirements: [],
    audit_behavior: 'full',
    is_stateful: false,
    executor: async () => ({ text: `${overrides.name} ran` }),
    ...overrides,
    metadata: { category, ...overrides.metadata },
  };
}
