/**
 * The incremental index (registry-index.ts) against a from-scratch answer: random sequences of
 * register / unregister / unregister_kind / replace_kind, with list and list_for asked in between
 * (so patched views are what gets compared), must give exactly what a plain pass over the current
 * entries gives: the same capabilities (the same stored objects), in name order.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CAPABILITY_KINDS, POLICY_CLASSES, type Capability, type CapabilityKind } from './capability.js';
import type { ListFilter } from './filter.js';
import { createRegistry } from './registry.js';
import { makeCapability } from './test-fixtures.js';

const NAMES = ['shell', 'file_read', 'file_write', 'git_read', 'web_fetch', 'computer_use', 'mcp_gh_issue', 'mcp_docs_read', 'skill_a', 'skill_b', 'tool_help', 'react'];
const CATEGORIES = ['file', 'system', 'web', 'mcp', 'computer'];
const FAMILIES = ['alpha', 'beta'];

const specArb = fc.record({
  name: fc.constantFrom(...NAMES),
  kind: fc.constantFrom(...CAPABILITY_KINDS),
  policy_class: fc.constantFrom(...POLICY_CLASSES),
  category: fc.constantFrom(...CATEGORIES),
  hidden: fc.boolean(),
  family: fc.constantFrom(...FAMILIES),
});
type Spec = { name: string; kind: CapabilityKind; policy_class: Capability['policy_class']; category: string; hidden: boolean; family: string };
const toCap = (s: Spec) => makeCapability({ name: s.name, kind: s.kind, policy_class: s.policy_class, hidden_from_agent: s.hidden, metadata: { category: s.category, family: s.family } });

/** A few filters, reused so that views are cached and then patched. */
const FILTERS: ListFilter[] = [
  { trust: 'operator' },
  { trust: 'guest' },
  { trust: 'operator', excluded_categories: ['web'], excluded_names: ['shell'] },
  { trust: 'operator', kind: 'mcp', include_hidden: true },
  { trust: 'operator', allowed_tools: ['file_read', 'skill_a', 'mcp_gh_issue', 'react'] },
  { policy_classes: ['read_only', 'network'], trust: 'operator' },
  {},
  { kind: 'skill' },
];

const opArb = fc.oneof(
  fc.record({ op: fc.constant('register' as const), spec: specArb }),
  fc.record({ op: fc.constant('unregister' as const), name: fc.constantFrom(...NAMES) }),
  fc.record({ op: fc.constant('unregister_kind' as const), kind: fc.constantFrom(...CAPABILITY_KINDS), family: fc.option(fc.constantFrom(...FAMILIES), { nil: undefined }) }),
  fc.record({ op: fc.constant('replace_kind' as const), kind: fc.constantFrom(...CAPABILITY_KINDS), family: fc.constantFrom(...FAMILIES), specs: fc.uniqueArray(specArb, { selector: (s) => s.name, maxLength: 5 }) }),
  fc.record({ op: fc.constant('ready' as const), value: fc.boolean() }),
  fc.record({ op: fc.constant('ask' as const), filter: fc.integer({ min: 0, max: FILTERS.length - 1 }) }),
);

const names = (caps: readonly Capability[]) => caps.map((c) => c.name);

describe('incremental registry index (property)', () => {
  it('list and list_for equal a fresh pass over the entries after any change sequence', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 60 }), (ops) => {
        let ready = false;
        const registry = createRegistry({ computerUseReady: () => ready });
        const current = new Map<string, Capability>();
        const check = () => {
          // The from-scratch answer: a registry built now from the same entries has no views to patch.
          const fresh = createRegistry({ computerUseReady: () => ready });
          for (const cap of current.values()) fresh.register(cap);
          for (const filter of FILTERS) {
            const got = registry.list_for(filter);
            expect(names(got)).toEqual(names(fresh.list_for(filter)));
            expect(names(registry.list(filter))).toEqual(names(fresh.list(filter)));
            // the stored objects themselves, not stale copies of replaced entries
            for (const cap of got) expect(cap).toBe(registry.find(cap.name));
          }
          expect(names(registry.list())).toEqual([...current.keys()].sort());
        };
        for (const step of ops) {
          switch (step.op) {
            case 'register': {
              const cap = toCap(step.spec);
              if (current.has(cap.name)) expect(() => registry.register(cap)).toThrow();
              else {
                registry.register(cap);
                current.set(cap.name, cap);
              }
              break;
            }
            case 'unregister':
              expect(registry.unregister(step.name)).toBe(current.delete(step.name));
              break;
            case 'unregister_kind': {
              const match = step.family === undefined ? undefined : { family: step.family };
              registry.unregister_kind(step.kind, match);
              for (const [name, cap] of current) if (cap.kind === step.kind && (match === undefined || cap.metadata.family === match.family)) current.delete(name);
              break;
            }
            case 'replace_kind': {
              const caps = step.specs.map((s) => toCap({ ...s, kind: step.kind, family: step.family }));
              try {
                registry.replace_kind(step.kind, { family: step.family }, caps);
              } catch {
                break; // refused (a name taken by another family): nothing changed
              }
              for (const [name, cap] of current) if (cap.kind === step.kind && cap.metadata.family === step.family) current.delete(name);
              for (const cap of caps) current.set(cap.name, cap);
              break;
            }
            case 'ready':
              ready = step.value;
              break;
            case 'ask':
              registry.list_for(FILTERS[step.filter]);
              break;
          }
          check();
        }
      }),
      { numRuns: 150 },
    );
  });

  it('a change of more than 256 names at once (a rebuild) gives the same answers', () => {
    const registry = createRegistry();
    const caps = Array.from({ length: 400 }, (_, index) => makeCapability({ name: `t_${String(index).padStart(3, '0')}`, kind: 'mcp', policy_class: index % 2 ? 'network' : 'read_only', metadata: { category: 'mcp', server: 'a' } }));
    for (const cap of caps.slice(0, 100)) registry.register(cap);
    const before = registry.list_for({ trust: 'operator' });
    expect(before).toHaveLength(100);
    registry.replace_kind('mcp', { server: 'a' }, caps);
    expect(names(registry.list_for({ trust: 'operator' }))).toEqual(names(caps));
    // the caller's earlier array is its own: later changes do not reach into it
    expect(before).toHaveLength(100);
    registry.unregister_kind('mcp', { server: 'a' });
    expect(registry.list_for({ trust: 'operator' })).toEqual([]);
  });
});
