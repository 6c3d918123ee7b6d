import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FermixError } from '../errors.js';
import { CAPABILITY_GROUPS } from './groups.js';
import { capabilitiesForRole, roleGrants, validateRole } from './roles.js';
import { makeCapability } from './test-fixtures.js';

describe('roles', () => {
  it('refuses an unknown group, naming it and listing the valid ones', () => {
    let caught: unknown;
    try {
      validateRole({ name: 'reviewer', tools: ['fs', 'netwrok'] });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(FermixError);
    const error = caught as FermixError;
    expect(error.code).toBe('unknown_group');
    expect(error.message).toContain('"netwrok"');
    expect(error.hint).toContain('fs, git, test, shell, net');
    expect(error.data).toMatchObject({ role: 'reviewer', group: 'netwrok' });
  });

  it('refuses a role without a name or tools list', () => {
    expect(() => validateRole({ name: '', tools: [] })).toThrow(FermixError);
    expect(() => validateRole({ name: 'x', tools: 'fs' as never })).toThrow(/no tools list/);
  });

  it('keeps valid groups, de-duplicated', () => {
    expect(validateRole({ name: 'coder', tools: ['fs', 'code', 'fs'] })).toEqual({ name: 'coder', tools: ['fs', 'code'] });
  });

  it('a role with fs, code, test cannot reach shell or net', () => {
    const role = validateRole({ name: 'coder', tools: ['fs', 'code', 'test'] });
    const caps = [
      makeCapability({ name: 'file_read' }),
      makeCapability({ name: 'shell', policy_class: 'exec' }),
      makeCapability({ name: 'web_fetch', policy_class: 'network' }),
    ];
    expect(capabilitiesForRole(role, caps).map((c) => c.name)).toEqual(['file_read']);
    expect(roleGrants(role, 'net')).toBe(false);
  });

  it('property: every capability a role reaches is in one of its groups', () => {
    fc.assert(
      fc.property(
        fc.subarray([...CAPABILITY_GROUPS]),
        fc.array(fc.record({ name: fc.stringMatching(/^[a-z_]{1,12}$/), group: fc.constantFrom(...CAPABILITY_GROUPS) })),
        (groups, specs) => {
          const role = validateRole({ name: 'r', tools: groups });
          const caps = specs.map((s) => makeCapability({ name: s.name, group: s.group }));
          const reached = capabilitiesForRole(role, caps);
          for (const cap of reached) expect(groups).toContain(cap.group);
          expect(reached.length).toBe(caps.filter((c) => groups.includes(c.group as never)).length);
        },
      ),
    );
  });
});
