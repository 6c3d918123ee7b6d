import { describe, expect, it } from 'vitest';
import { isFermixError } from '../errors.js';
import { defaultAllow, guestRestriction, resolvePolicy, subagentPolicy } from './trust.js';

const ready = { computerUseReady: () => true };
const notReady = { computerUseReady: () => false };

describe('trust defaults', () => {
  it('operator gets every class but gui_control unless computer use is ready', () => {
    expect(defaultAllow('operator', notReady)).toEqual(['read_only', 'read_write', 'exec', 'network', 'external_api']);
    expect(defaultAllow('operator')).not.toContain('gui_control');
    expect(defaultAllow('operator', ready)).toContain('gui_control');
  });

  it('guest gets read_only only, even when computer use is ready', () => {
    expect(defaultAllow('guest', ready)).toEqual(['read_only']);
  });

  it.each([[undefined], [null], ['admin'], ['OPERATOR']])('trust %j resolves to guest, never more', (trust) => {
    const resolved = resolvePolicy(trust as never, undefined, undefined, ready);
    expect(resolved).toMatchObject({ trust: 'guest', allow: ['read_only'], guest_restrictions: true, source: 'trust_default' });
  });
});

describe('explicit policy', () => {
  it('narrows the operator default (shorthand array and {allow, deny})', () => {
    expect(resolvePolicy('operator', ['read_only', 'network']).allow).toEqual(['read_only', 'network']);
    expect(resolvePolicy('operator', { deny: ['exec'] }).allow).toEqual(['read_only', 'read_write', 'network', 'external_api']);
    expect(resolvePolicy('operator', { allow: ['exec', 'read_only'], deny: ['exec'] }).allow).toEqual(['read_only']);
    expect(resolvePolicy('operator', ['exec']).source).toBe('explicit');
  });

  it('can never widen a guest or a missing trust', () => {
    for (const trust of ['guest', undefined] as const) {
      expect(resolvePolicy(trust, ['exec', 'network', 'read_write', 'gui_control'], undefined, ready).allow).toEqual([]);
      expect(resolvePolicy(trust, undefined, ['exec', 'read_only'], ready).allow).toEqual(['read_only']);
    }
  });

  it('gui_control cannot be granted while computer use is not ready', () => {
    expect(resolvePolicy('operator', ['gui_control'], undefined, notReady).allow).toEqual([]);
    expect(resolvePolicy('operator', ['gui_control'], undefined, ready).allow).toEqual(['gui_control']);
  });

  it('policy_classes intersects with policy', () => {
    expect(resolvePolicy('operator', ['read_only', 'exec'], ['exec', 'network']).allow).toEqual(['exec']);
  });

  it('deny is the complement of allow', () => {
    const resolved = resolvePolicy('operator', ['read_only']);
    expect([...resolved.allow, ...resolved.deny].sort()).toEqual(['exec', 'external_api', 'gui_control', 'network', 'read_only', 'read_write']);
  });

  it('refuses an unknown class with the valid list', () => {
    try {
      resolvePolicy('operator', ['read_only', 'write' as never]);
      expect.unreachable();
    } catch (error) {
      expect(isFermixError(error) && error.code).toBe('invalid_policy');
      expect((error as Error).message).toContain('"write"');
    }
  });
});

describe('subagentPolicy', () => {
  it('removes read_write and gui_control, keeps the rest, never adds', () => {
    expect(subagentPolicy(['read_only', 'read_write', 'exec', 'network', 'external_api', 'gui_control'])).toEqual(['read_only', 'exec', 'network', 'external_api']);
    expect(subagentPolicy(['read_only'])).toEqual(['read_only']);
    expect(subagentPolicy([])).toEqual([]);
  });
});

describe('guestRestriction', () => {
  it('removes owner-data tools and mcp/skill kinds', () => {
    expect(guestRestriction({ name: 'file_read', kind: 'builtin' })).toMatch(/owner's own data/);
    expect(guestRestriction({ name: 'memory_sources_list', kind: 'builtin' })).not.toBeNull();
    expect(guestRestriction({ name: 'mcp_docs_read', kind: 'mcp' })).toMatch(/mcp/);
    expect(guestRestriction({ name: 'memory_recall', kind: 'builtin' })).toBeNull();
  });
});
