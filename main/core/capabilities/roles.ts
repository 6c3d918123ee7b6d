/**
 * Roles (Voss `[roles.<name>] tools = [...]`): a role grants capabilities by GROUP name. A role that
 * lists ["fs", "code", "test"] cannot reach shell or net. An unknown group is refused when the role is
 * read (like `voss team check`), never silently ignored: a typo would otherwise shrink or void a role.
 */
import { FermixError } from '../errors.js';
import type { Capability } from './capability.js';
import { CAPABILITY_GROUPS, isCapabilityGroup, type CapabilityGroup } from './groups.js';

export interface Role {
  name: string;
  tools: readonly CapabilityGroup[];
}

/** Parse a role from config-shaped input; throws `unknown_group` naming the group and the valid ones. */
export function validateRole(input: { name: string; tools: readonly string[] }): Role {
  if (typeof input?.name !== 'string' || input.name.length === 0) {
    throw new FermixError({ code: 'invalid_role', message: 'A role needs a name.', hint: 'Name the role in its table header, e.g. [roles.reviewer].' });
  }
  if (!Array.isArray(input.tools)) {
    throw new FermixError({
      code: 'invalid_role',
      message: `Role ${input.name} has no tools list.`,
      hint: `Set tools = [...] with groups from: ${CAPABILITY_GROUPS.join(', ')}.`,
      data: { role: input.name },
    });
  }
  for (const group of input.tools) {
    if (!isCapabilityGroup(group)) {
      throw new FermixError({
        code: 'unknown_group',
        message: `Role ${input.name} lists unknown capability group ${JSON.stringify(group)}.`,
        hint: `Use one of: ${CAPABILITY_GROUPS.join(', ')}.`,
        data: { role: input.name, group, valid: [...CAPABILITY_GROUPS] },
      });
    }
  }
  return { name: input.name, tools: [...new Set(input.tools as CapabilityGroup[])] };
}

/** The role every agent run has unless config names another: every group, so trust and the gate decide alone. */
export const BUILTIN_OPERATOR_ROLE = 'operator';
export const OPERATOR_ROLE: Role = { name: BUILTIN_OPERATOR_ROLE, tools: [...CAPABILITY_GROUPS] };

/** `[roles.<name>]` plus the built-in operator role. */
export function configuredRoles(roles: Readonly<Record<string, { tools: readonly string[] }>>): Role[] {
  return [OPERATOR_ROLE, ...Object.entries(roles).map(([name, role]) => validateRole({ name, tools: role.tools }))];
}

/** The role of the main interactive agent: `[agents.main] role`, default `operator`. */
export function mainAgentRole(config: { roles: Readonly<Record<string, { tools: readonly string[] }>>; agents: { main: { role?: string } } }): Role {
  const name = config.agents.main.role ?? BUILTIN_OPERATOR_ROLE;
  const role = configuredRoles(config.roles).find((candidate) => candidate.name === name);
  if (role === undefined) {
    throw new FermixError({ code: 'invalid_role', message: `[agents.main] role names "${name}", which is not defined.`, hint: `Define [roles.${name}] tools = [...] in config.toml, or set role = "${BUILTIN_OPERATOR_ROLE}".`, data: { role: name } });
  }
  return role;
}

/**
 * What a role lets a model be offered (and run): its groups, and — Voss — a network capability only
 * when the role also grants `net`, whatever group the capability is in (an MCP or plugin tool that
 * calls a remote API is `is_network`).
 */
export function roleReaches(role: Role, cap: Pick<Capability, 'group'>, network: boolean): boolean {
  return roleGrants(role, cap.group) && (!network || roleGrants(role, 'net'));
}

export function roleGrants(role: Role, group: string): boolean {
  return (role.tools as readonly string[]).includes(group);
}

/** The capabilities a role can reach: exactly those whose group the role lists. */
export function capabilitiesForRole(role: Role, caps: readonly Capability[]): Capability[] {
  const groups = new Set<string>(role.tools);
  return caps.filter((cap) => groups.has(cap.group));
}
