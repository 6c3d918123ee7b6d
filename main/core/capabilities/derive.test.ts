import { describe, expect, it } from 'vitest';
import { POLICY_CLASSES, type PolicyClass } from './capability.js';
import { DEFAULT_TIMEOUT_MS, isMutating, isNetwork, normalizeCapability } from './derive.js';
import { makeCapability } from './test-fixtures.js';

describe('derive', () => {
  const expected: Record<PolicyClass, { mutating: boolean; network: boolean }> = {
    read_only: { mutating: false, network: false },
    read_write: { mutating: true, network: false },
    exec: { mutating: true, network: false },
    network: { mutating: false, network: true },
    external_api: { mutating: true, network: true },
    gui_control: { mutating: true, network: false },
  };

  it.each(POLICY_CLASSES.map((c) => [c]))('derives is_mutating / is_network for %s', (policyClass) => {
    const cap = makeCapability({ name: 'x', policy_class: policyClass });
    expect({ mutating: isMutating(cap), network: isNetwork(cap) }).toEqual(expected[policyClass]);
  });

  it('an explicit flag wins over the class (an MCP tool known to be read-only)', () => {
    const cap = makeCapability({ name: 'mcp_docs_search', policy_class: 'external_api', is_mutating: false });
    expect(isMutating(cap)).toBe(false);
    expect(isNetwork(cap)).toBe(true);
    expect(isMutating(makeCapability({ name: 'y', policy_class: 'read_only', is_mutating: true }))).toBe(true);
  });

  it('normalizeCapability fills every field and says where derived flags came from', () => {
    const cap = makeCapability({ name: 'shell', policy_class: 'exec', is_network: true });
    const view = normalizeCapability(cap);
    for (const [key, value] of Object.entries(view)) expect(value, key).not.toBeUndefined();
    expect(view).toMatchObject({
      is_mutating: true,
      is_network: true,
      derived_from: { is_mutating: 'policy_class', is_network: 'explicit' },
      has_executor: true,
      timeout_ms: DEFAULT_TIMEOUT_MS,
      output_schema: null,
    });
    expect('executor' in view).toBe(false);
    expect(JSON.parse(JSON.stringify(view))).toEqual(view);
  });

  it('reports a capability without executor', () => {
    expect(normalizeCapability(makeCapability({ name: 'z', executor: undefined, timeout_ms: 5 }))).toMatchObject({ has_executor: false, timeout_ms: 5 });
  });
});
