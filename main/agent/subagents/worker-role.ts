/**
 * The role a subagent worker runs with: `[agents.subagent] role` (default the built-in operator), and
 * never more than its parent's role — a worker reaches only groups both roles list, so a narrowed main
 * agent cannot widen itself by delegating.
 */
import { FermixError } from '../../core/errors.js';
import { BUILTIN_OPERATOR_ROLE, configuredRoles, type Role } from '../../core/capabilities/roles.js';

export function subagentRole(config: { roles: Readonly<Record<string, { tools: readonly string[] }>>; agents: { subagent?: { role?: string } } }, parent: Role | null): Role {
  const name = config.agents.subagent?.role ?? BUILTIN_OPERATOR_ROLE;
  const role = configuredRoles(config.roles).find((candidate) => candidate.name === name);
  if (role === undefined) {
    throw new FermixError({
      code: 'invalid_role',
      message: `[agents.subagent] role names "${name}", which is not defined.`,
      hint: `Define [roles.${name}] tools = [...] in config.toml, or set role = "${BUILTIN_OPERATOR_ROLE}".`,
      data: { role: name },
    });
  }
  if (parent === null) return role;
  const parentGroups = new Set<string>(parent.tools);
  return { name: role.name, tools: role.tools.filter((group) => parentGroups.has(group)) };
}
