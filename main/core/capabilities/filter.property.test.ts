/**
 * Property tests of the registry filters against a straightforward reference written from seed 000
 * and reference §2.1 (one array filter per step, in the documented order), over random registries
 * and random filters.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CAPABILITY_KINDS, POLICY_CLASSES, type Capability, type PolicyClass } from './capability.js';
import type { ListFilter } from './filter.js';
import { createRegistry } from './registry.js';
import { makeCapability } from './test-fixtures.js';

const NAMES = ['shell', 'file_read', 'file_write', 'glob_search', 'git_read', 'memory_recall', 'list_jobs', 'send_attachment', 'web_fetch', 'computer_use', 'tool_help', 'mcp_gh_issue', 'mcp_docs_read', 'react', 'subagents'];
const CATEGORIES = ['file', 'system', 'web', 'scheduling', 'memory', 'mcp', 'computer'];
const OWNER_DATA = new Set(['file_read', 'view_image', 'glob_search', 'content_search', 'git_read', 'list_jobs', 'list_job_runs', 'get_job_run', 'send_attachment', 'memory_sources_list']);

const capArb = fc.record({
  name: fc.constantFrom(...NAMES),
  kind: fc.constantFrom(...CAPABILITY_KINDS),
  policy_class: fc.constantFrom(...POLICY_CLASSES),
  category: fc.constantFrom(...CATEGORIES),
  hidden: fc.boolean(),
});
const registryArb = fc.uniqueArray(capArb, { selector: (c) => c.name, maxLength: NAMES.length });
const classesArb = fc.subarray([...POLICY_CLASSES]);
const namesArb = fc.subarray(NAMES);
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });

/** Random filters; keys are present or absent independently, values may be null. */
const filterArb: fc.Arbitrary<ListFilter> = fc
  .record(
    {
      allowed_tools: fc.option(namesArb, { nil: null }),
      policy: fc.oneof(classesArb, fc.record({ allow: maybe(classesArb), deny: maybe(classesArb) }), fc.constant(null)),
      policy_classes: fc.option(classesArb, { nil: null }),
      trust: fc.constantFrom('operator', 'guest', undefined, null),
      kind: fc.constantFrom('builtin', 'skill', 'mcp', 'all', undefined),
      excluded_categories: fc.option(fc.subarray(CATEGORIES), { nil: null }),
      excluded_names: fc.option(namesArb, { nil: null }),
      include_hidden: fc.boolean(),
    },
    { requiredKeys: [] },
  )
  .map((f) => f as ListFilter);

function build(spec: { name: string; kind: Capability['kind']; policy_class: PolicyClass; category: string; hidden: boolean }[], computerUseReady: boolean) {
  const registry = createRegistry({ computerUseReady: () => computerUseReady });
  for (const s of spec) registry.register(makeCapability({ name: s.name, kind: s.kind, policy_class: s.policy_class, hidden_from_agent: s.hidden, metadata: { category: s.category } }));
  return registry;
}

/** The spec, step by step, as plainly as possible. */
function reference(caps: Capability[], filter: ListFilter, forcePolicy: boolean, computerUseReady: boolean): string[] {
  const policyApplies = forcePolicy || 'trust' in filter || 'policy' in filter || 'policy_classes' in filter;
  let out = [...caps];
  if (filter.kind && filter.kind !== 'all') out = out.filter((c) => c.kind === filter.kind);
  if (policyApplies) {
    const operator = filter.trust === 'operator';
    let allowed: PolicyClass[] = operator ? ['read_only', 'read_write', 'exec', 'network', 'external_api'] : ['read_only'];
    if (operator && computerUseReady) allowed.push('gui_control');
    const p = filter.policy;
    if (p != null) {
      const spec = Array.isArray(p) ? { allow: p, deny: [] } : (p as { allow?: PolicyClass[]; deny?: PolicyClass[] });
      if (spec.allow !== undefined) allowed = allowed.filter((c) => spec.allow!.includes(c));
      allowed = allowed.filter((c) => !(spec.deny ?? []).includes(c));
    }
    if (filter.policy_classes != null) allowed = allowed.filter((c) => filter.policy_classes!.includes(c));
    out = out.filter((c) => allowed.includes(c.policy_class));
    if (!operator) out = out.filter((c) => c.kind !== 'mcp' && c.kind !== 'skill' && !OWNER_DATA.has(c.name));
  }
  if (filter.allowed_tools != null) out = out.filter((c) => filter.allowed_tools!.includes(c.name));
  if (filter.excluded_names != null) out = out.filter((c) => !filter.excluded_names!.includes(c.name));
  if (filter.excluded_categories != null) out = out.filter((c) => !filter.excluded_categories!.includes(c.metadata.category));
  const includeHidden = filter.include_hidden ?? !policyApplies;
  if (!includeHidden) out = out.filter((c) => !c.hidden_from_agent);
  return out.map((c) => c.name).sort();
}

const names = (caps: Capability[]) => caps.map((c) => c.name);

describe('registry filters (property)', () => {
  it('list and list_for equal the step-by-step reference', () => {
    fc.assert(
      fc.property(registryArb, filterArb, fc.boolean(), (spec, filter, ready) => {
        const registry = build(spec, ready);
        const all = registry.list();
        expect(names(registry.list(filter))).toEqual(reference(all, filter, false, ready));
        expect(names(registry.list_for(filter))).toEqual(reference(all, filter, true, ready));
      }),
      { numRuns: 500 },
    );
  });

  it('a missing trust never sees more than a guest, whatever policy it passes', () => {
    fc.assert(
      fc.property(registryArb, filterArb, (spec, filter) => {
        const registry = build(spec, true);
        const { trust: _ignored, ...withoutTrust } = filter;
        const guest = new Set(names(registry.list_for({ ...withoutTrust, trust: 'guest' })));
        const views = [
          registry.list_for(withoutTrust),
          registry.list_for({ ...withoutTrust, trust: undefined }),
          registry.list_for({ ...withoutTrust, trust: null }),
          // the primitive path too: a trust KEY that is unset must not fall through to "everything"
          registry.list({ ...withoutTrust, trust: undefined }),
          registry.list({ ...withoutTrust, trust: null }),
        ];
        for (const view of views) {
          for (const cap of view) {
            expect(guest.has(cap.name)).toBe(true);
            expect(cap.policy_class).toBe('read_only');
            expect(cap.kind).toBe('builtin');
            expect(OWNER_DATA.has(cap.name)).toBe(false);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('allowed_tools: [] yields nothing, on both paths', () => {
    fc.assert(
      fc.property(registryArb, filterArb, (spec, filter) => {
        const registry = build(spec, true);
        expect(registry.list({ ...filter, allowed_tools: [] })).toEqual([]);
        expect(registry.list_for({ ...filter, allowed_tools: [] })).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });

  it('hidden entries reach a caller only with include_hidden', () => {
    fc.assert(
      fc.property(registryArb, filterArb, (spec, filter) => {
        const registry = build(spec, true);
        const { include_hidden: _ignored, ...rest } = filter;
        expect(registry.list_for(rest).some((c) => c.hidden_from_agent)).toBe(false);
        expect(registry.list_for({ ...rest, include_hidden: false }).some((c) => c.hidden_from_agent)).toBe(false);
        expect(registry.list({ ...rest, include_hidden: false }).some((c) => c.hidden_from_agent)).toBe(false);
      }),
      { numRuns: 200 },
    );
  });

  it('rejection() agrees with list_for for every capability', () => {
    fc.assert(
      fc.property(registryArb, filterArb, (spec, filter) => {
        const registry = build(spec, false);
        const visible = new Set(names(registry.list_for(filter)));
        for (const cap of registry.list()) expect(registry.rejection(cap, filter) === null).toBe(visible.has(cap.name));
      }),
      { numRuns: 200 },
    );
  });

  it('a guest never gets exec, network, external_api, gui_control, read_write, mcp or skill', () => {
    fc.assert(
      fc.property(registryArb, filterArb, (spec, filter) => {
        const registry = build(spec, true);
        for (const cap of registry.list_for({ ...filter, trust: 'guest' })) {
          expect(cap.policy_class).toBe('read_only');
          expect(['mcp', 'skill']).not.toContain(cap.kind);
        }
      }),
      { numRuns: 200 },
    );
  });
});
