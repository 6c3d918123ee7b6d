import { describe, expect, it } from 'vitest';
import { FermixError } from '../errors.js';
import type { Capability } from './capability.js';
import { createRegistry, type RegistryChange } from './registry.js';
import { makeCapability } from './test-fixtures.js';

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return error instanceof FermixError ? error.code : 'not-a-fermix-error';
  }
  return undefined;
}

const names = (caps: Capability[]) => caps.map((c) => c.name);

describe('register / find / unregister', () => {
  it('refuses a duplicate name with duplicate_name and keeps the first', () => {
    const registry = createRegistry();
    registry.register(makeCapability({ name: 'file_read' }));
    expect(codeOf(() => registry.register(makeCapability({ name: 'file_read', policy_class: 'exec' })))).toBe('duplicate_name');
    expect(registry.find('file_read')?.policy_class).toBe('read_only');
  });

  it('refuses malformed capabilities', () => {
    const registry = createRegistry();
    expect(codeOf(() => registry.register(makeCapability({ name: 'bad name' })))).toBe('invalid_capability');
    expect(codeOf(() => registry.register(makeCapability({ name: 'a'.repeat(65) })))).toBe('invalid_capability');
    expect(codeOf(() => registry.register(makeCapability({ name: 'x', policy_class: 'root' as never })))).toBe('invalid_capability');
    expect(codeOf(() => registry.register(makeCapability({ name: 'x', group: 'nope' })))).toBe('invalid_capability');
    expect(codeOf(() => registry.register(makeCapability({ name: 'x', kind: 'plugin' as never })))).toBe('invalid_capability');
    expect(registry.size).toBe(0);
  });

  it('stores a frozen copy: mutating the registered object cannot change its policy class', () => {
    const registry = createRegistry();
    const cap = makeCapability({ name: 'file_read' });
    registry.register(cap);
    cap.policy_class = 'exec';
    cap.metadata.category = 'system';
    expect(registry.find('file_read')?.policy_class).toBe('read_only');
    expect(registry.find('file_read')?.metadata.category).toBe('file');
    expect(() => {
      (registry.find('file_read') as Capability).policy_class = 'exec';
    }).toThrow();
  });

  it('unregister removes by name and reports whether it did', () => {
    const registry = createRegistry();
    registry.register(makeCapability({ name: 'a' }));
    expect(registry.unregister('a')).toBe(true);
    expect(registry.unregister('a')).toBe(false);
    expect(registry.find('a')).toBeUndefined();
  });
});

describe('families', () => {
  function seeded() {
    const registry = createRegistry();
    registry.register(makeCapability({ name: 'shell', policy_class: 'exec' }));
    registry.register(makeCapability({ name: 'mcp_gh_issue', kind: 'mcp', policy_class: 'external_api', metadata: { category: 'mcp', mcp_server: 'gh' } }));
    registry.register(makeCapability({ name: 'mcp_gh_pr', kind: 'mcp', policy_class: 'external_api', metadata: { category: 'mcp', mcp_server: 'gh' } }));
    registry.register(makeCapability({ name: 'mcp_docs_read', kind: 'mcp', policy_class: 'external_api', metadata: { category: 'mcp', mcp_server: 'docs' } }));
    return registry;
  }

  it('unregister_kind removes a kind, optionally matched on metadata', () => {
    const registry = seeded();
    expect(registry.unregister_kind('mcp', { mcp_server: 'gh' }).sort()).toEqual(['mcp_gh_issue', 'mcp_gh_pr']);
    expect(names(registry.list())).toEqual(['mcp_docs_read', 'shell']);
    expect(registry.unregister_kind('mcp')).toEqual(['mcp_docs_read']);
    expect(names(registry.list())).toEqual(['shell']);
  });

  it('replace_kind swaps a family in one step: listeners see the whole new family, one version bump', () => {
    const registry = seeded();
    const seen: { change: RegistryChange; visible: string[] }[] = [];
    registry.subscribe((change) => seen.push({ change, visible: names(registry.list()) }));
    const before = registry.version;
    const result = registry.replace_kind('mcp', { mcp_server: 'gh' }, [
      makeCapability({ name: 'mcp_gh_issue', kind: 'mcp', policy_class: 'external_api', metadata: { category: 'mcp', mcp_server: 'gh' } }),
      makeCapability({ name: 'mcp_gh_search', kind: 'mcp', policy_class: 'external_api', metadata: { category: 'mcp', mcp_server: 'gh' } }),
    ]);
    expect(result.removed.sort()).toEqual(['mcp_gh_issue', 'mcp_gh_pr']);
    expect(registry.version).toBe(before + 1);
    expect(seen).toHaveLength(1);
    expect(seen[0].visible).toEqual(['mcp_docs_read', 'mcp_gh_issue', 'mcp_gh_search', 'shell']);
  });

  it('a refused replace_kind changes nothing', () => {
    const registry = seeded();
    const before = { version: registry.version, names: names(registry.list()) };
    const gh = (name: string) => makeCapability({ name, kind: 'mcp', policy_class: 'external_api', metadata: { category: 'mcp', mcp_server: 'gh' } });
    // collides with a capability outside the family
    expect(codeOf(() => registry.replace_kind('mcp', { mcp_server: 'gh' }, [gh('mcp_gh_new'), gh('shell')]))).toBe('duplicate_name');
    // duplicates inside the batch
    expect(codeOf(() => registry.replace_kind('mcp', { mcp_server: 'gh' }, [gh('mcp_gh_x'), gh('mcp_gh_x')]))).toBe('duplicate_name');
    // does not belong to the family (would survive the next swap)
    expect(codeOf(() => registry.replace_kind('mcp', { mcp_server: 'gh' }, [makeCapability({ name: 'mcp_gh_y', kind: 'mcp', metadata: { category: 'mcp', mcp_server: 'other' } })]))).toBe('invalid_capability');
    expect({ version: registry.version, names: names(registry.list()) }).toEqual(before);
  });
});

describe('version and subscribe', () => {
  it('increments on every change and not on no-ops', () => {
    const registry = createRegistry();
    const changes: RegistryChange[] = [];
    const unsubscribe = registry.subscribe((c) => changes.push(c));
    registry.register(makeCapability({ name: 'a' }));
    registry.unregister('missing');
    registry.unregister_kind('mcp');
    registry.unregister('a');
    expect(registry.version).toBe(2);
    expect(changes).toEqual([{ version: 1, added: ['a'], removed: [] }, { version: 2, added: [], removed: ['a'] }]);
    unsubscribe();
    registry.register(makeCapability({ name: 'b' }));
    expect(changes).toHaveLength(2);
  });

  it('a throwing listener neither undoes the change nor stops other listeners', () => {
    const errors: unknown[] = [];
    const registry = createRegistry({ onListenerError: (e) => errors.push(e) });
    let second = 0;
    registry.subscribe(() => {
      throw new Error('listener bug');
    });
    registry.subscribe(() => (second += 1));
    registry.register(makeCapability({ name: 'a' }));
    expect(registry.find('a')).toBeDefined();
    expect(second).toBe(1);
    expect(errors).toHaveLength(1);
  });
});

describe('list', () => {
  function registryWith() {
    const registry = createRegistry();
    registry.register(makeCapability({ name: 'shell', policy_class: 'exec' }));
    registry.register(makeCapability({ name: 'file_read' }));
    registry.register(makeCapability({ name: 'memory_recall', metadata: { category: 'memory' } }));
    registry.register(makeCapability({ name: 'list_jobs', metadata: { category: 'scheduling' } }));
    registry.register(makeCapability({ name: 'mcp_x_hidden', kind: 'mcp', policy_class: 'external_api', hidden_from_agent: true }));
    return registry;
  }

  it('list() with no policy keys returns every capability, hidden included, sorted by name', () => {
    expect(names(registryWith().list())).toEqual(['file_read', 'list_jobs', 'mcp_x_hidden', 'memory_recall', 'shell']);
  });

  it('list() still honours the non-policy filters it is given', () => {
    const registry = registryWith();
    expect(names(registry.list({ kind: 'mcp' }))).toEqual(['mcp_x_hidden']);
    expect(names(registry.list({ include_hidden: false, excluded_categories: ['scheduling'] }))).toEqual(['file_read', 'memory_recall', 'shell']);
    expect(registry.list({ allowed_tools: [] })).toEqual([]);
  });

  it('a present-but-undefined trust key means guest, not "bypass the policy"', () => {
    const registry = registryWith();
    const ctx: { trust?: 'operator' } = {};
    expect(names(registry.list({ trust: ctx.trust }))).toEqual(['memory_recall']);
    expect(names(registry.list_for({}))).toEqual(['memory_recall']);
  });

  it('operator list_for hides hidden entries unless include_hidden', () => {
    const registry = registryWith();
    expect(names(registry.list_for({ trust: 'operator' }))).toEqual(['file_read', 'list_jobs', 'memory_recall', 'shell']);
    expect(names(registry.list_for({ trust: 'operator', include_hidden: true }))).toContain('mcp_x_hidden');
  });

  it('rejection() names the first refusing step with a reason', () => {
    const registry = registryWith();
    const shell = registry.find('shell')!;
    expect(registry.rejection(shell, { trust: 'guest' })).toMatchObject({ step: 'policy' });
    expect(registry.rejection(shell, { trust: 'guest' })?.reason).toMatch(/policy class exec/);
    expect(registry.rejection(registry.find('file_read')!, { trust: 'guest' })?.reason).toMatch(/owner's own data/);
    expect(registry.rejection(shell, { trust: 'operator', kind: 'mcp', allowed_tools: [] })?.step).toBe('kind');
    expect(registry.rejection(shell, { trust: 'operator', allowed_tools: ['file_read'] })?.step).toBe('allowlist');
    expect(registry.rejection(shell, { trust: 'operator' })).toBeNull();
  });

  it('resolve_policy uses the injected computer-use readiness', () => {
    let ready = false;
    const registry = createRegistry({ computerUseReady: () => ready });
    registry.register(makeCapability({ name: 'computer_use', policy_class: 'gui_control' }));
    expect(registry.list_for({ trust: 'operator' })).toEqual([]);
    ready = true;
    expect(names(registry.list_for({ trust: 'operator' }))).toEqual(['computer_use']);
    expect(registry.resolve_policy('operator').allow).toContain('gui_control');
    expect(registry.list_for({ trust: 'guest' })).toEqual([]);
  });

  it('refresh is a no-op', () => {
    const registry = registryWith();
    const version = registry.version;
    registry.refresh('mcp');
    expect(registry.version).toBe(version);
  });

  it('list_for over 5,000 capabilities is a fast single pass', () => {
    const registry = createRegistry();
    const classes = ['read_only', 'read_write', 'exec', 'network', 'external_api'] as const;
    for (let i = 0; i < 5000; i += 1) registry.register(makeCapability({ name: `tool_${i}`, policy_class: classes[i % 5], hidden_from_agent: i % 7 === 0 }));
    registry.list_for({ trust: 'operator' }); // builds the sorted view once
    const started = performance.now();
    for (let i = 0; i < 20; i += 1) registry.list_for({ trust: 'guest', excluded_names: ['tool_5'], excluded_categories: ['scheduling'] });
    const perCall = (performance.now() - started) / 20;
    // ~1 ms on the dev box; 10 ms leaves room for a slow CI machine and still catches an O(n²) pass or
    // the V8 slow-object trap described at freezeCapability (~8–10 ms).
    expect(perCall).toBeLessThan(10);
    expect(registry.find('tool_4999')?.name).toBe('tool_4999');
  });
});
