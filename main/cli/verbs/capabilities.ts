import type { HomePaths } from '../../config/home.js';
import { loadConfig } from '../../config/config-file.js';
import { BUILTIN_OPERATOR_ROLE, configuredRoles, createRegistry, roleReaches } from '../../core/capabilities/index.js';
import { isNetwork } from '../../core/capabilities/derive.js';
import { builtinToolsFor } from '../../daemon/builtin-tools.js';
import type { CapabilityView } from '../../api/methods/capabilities.js';
import { randomUUID } from 'node:crypto';
import { callDaemon } from '../control-client.js';
import { promptForApprovals } from '../approval-prompt.js';
import { EXIT, UsageError, type CliIo } from '../output.js';
import { FermixError, isFermixError } from '../../core/errors.js';
import { cliCommand } from '../invocation.js';

function grouped(capabilities: CapabilityView[]): string {
  const byGroup = new Map<string, string[]>();
  for (const cap of capabilities) byGroup.set(cap.group, [...(byGroup.get(cap.group) ?? []), cap.has_executor ? cap.name : `${cap.name}*`]);
  const width = Math.max(...[...byGroup.keys()].map((group) => group.length));
  const lines = [...byGroup.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([group, names]) => `${group.padEnd(width)}  ${names.sort().join(' ')}`);
  const pending = capabilities.filter((cap) => !cap.has_executor).length;
  lines.push('', `${capabilities.length} capabilities${pending ? `; * = not implemented yet (${pending})` : ''}. Details: fermix capabilities inspect NAME`);
  return lines.join('\n');
}

function describe(cap: CapabilityView): string {
  const required = new Set((cap.parameters.required as string[] | undefined) ?? []);
  const properties = (cap.parameters.properties ?? {}) as Record<string, { type?: string; description?: string }>;
  const failure = (cap.metadata.failure_modes as { tag: string; description: string }[] | undefined) ?? [];
  const examples = (cap.metadata.examples as string[] | undefined) ?? [];
  return [
    `${cap.name} — ${cap.description}`,
    `status:        ${cap.status}`,
    `kind:          ${cap.kind}    policy class: ${cap.policy_class}    category: ${cap.category}    group: ${cap.group}`,
    `mutating:      ${cap.is_mutating} (${cap.derived_from.is_mutating})    network: ${cap.is_network} (${cap.derived_from.is_network})    stateful: ${cap.is_stateful}`,
    `scopes:        ${cap.scope_requirements.join(', ') || '(none)'}    audit: ${cap.audit_behavior}    timeout: ${cap.timeout_ms} ms${cap.hidden_from_agent ? '    hidden from the agent' : ''}`,
    'parameters:',
    ...Object.entries(properties).map(([name, schema]) => `  ${name}${required.has(name) ? ' (required)' : ''}: ${schema.type ?? 'any'} — ${schema.description ?? ''}`),
    ...(cap.output_schema ? ['output schema:', `  ${JSON.stringify(cap.output_schema)}`] : []),
    ...(examples.length ? ['examples:', ...examples.map((example) => `  ${example}`)] : []),
    ...(failure.length ? ['failure modes:', ...failure.map((mode) => `  ${mode.tag}: ${mode.description}`)] : []),
  ].join('\n');
}

export async function capabilitiesVerb(io: CliIo, paths: HomePaths, rest: string[], options: { json: boolean; kind?: string; args?: string; trust?: string; interactive?: boolean }): Promise<number> {
  const [sub = 'list', name, ...extra] = rest;
  if (sub === 'list') {
    const result = (await callDaemon(paths.socket, 'capabilities.list', { kind: options.kind ?? 'all' })) as { capabilities: CapabilityView[] };
    io.out(options.json ? JSON.stringify({ schema_version: 1, ok: true, result }) : grouped(result.capabilities));
    return EXIT.ok;
  }
  if (sub === 'inspect') {
    if (!name) throw new UsageError('usage: fermix capabilities inspect NAME [--json]');
    const cap = (await callDaemon(paths.socket, 'capabilities.inspect', { name })) as CapabilityView;
    io.out(options.json ? JSON.stringify({ schema_version: 1, ok: true, result: cap }) : describe(cap));
    return EXIT.ok;
  }
  if (sub === 'call') {
    if (!name) throw new UsageError("usage: fermix capabilities call NAME ['{JSON}' | --args '{JSON}'] [--trust operator|guest]");
    // The arguments may be the word after NAME (as people type it) or --args; both at once is ambiguous.
    if (extra.length > 1) throw new UsageError(`capabilities call takes one JSON object after ${name}; quote it as one word: '{"key": "value"}'`);
    if (extra.length === 1 && options.args !== undefined) throw new UsageError('give the arguments once: either after NAME or with --args, not both');
    const source = options.args ?? extra[0];
    let args: unknown = {};
    if (source !== undefined) {
      try {
        args = JSON.parse(source);
      } catch {
        throw new UsageError(`the arguments must be a JSON object, e.g. '{"path": "notes.txt"}' (got ${source})`);
      }
      if (args === null || typeof args !== 'object' || Array.isArray(args)) throw new UsageError(`the arguments must be a JSON object, e.g. '{"path": "notes.txt"}' (got ${source})`);
    }
    if (options.trust !== undefined && options.trust !== 'operator' && options.trust !== 'guest') throw new UsageError('--trust is operator or guest');
    // On a terminal (or with --interactive) the person can answer approval cards right here.
    const interactive = options.interactive === true || (process.stdin.isTTY === true && !options.json);
    const conversationId = `cli-${randomUUID()}`;
    const prompt = interactive ? promptForApprovals(io, paths.socket, conversationId) : undefined;
    let result: { text: string; data?: unknown };
    try {
      result = (await callDaemon(paths.socket, 'capabilities.call', { name, args, trust: options.trust ?? 'operator', origin: 'cli', cwd: process.cwd(), interactive, conversation_id: conversationId }, 600_000)) as { text: string; data?: unknown };
    } catch (error) {
      // The daemon's hint is written for the model (tool_describe); a person at a terminal inspects with the CLI.
      if (isFermixError(error) && error.code === 'invalid_arguments') {
        throw new FermixError({ code: error.code, message: error.message, hint: `See its parameters with \`${cliCommand('capabilities inspect')} ${name}\`, then call again: ${cliCommand('capabilities call')} ${name} '{"…": …}'.`, data: error.data });
      }
      throw error;
    } finally {
      prompt?.stop();
    }
    io.out(options.json ? JSON.stringify({ schema_version: 1, ok: true, result }) : result.text);
    return EXIT.ok;
  }
  throw new UsageError("usage: fermix capabilities [list|inspect NAME|call NAME '{JSON}'] [--kind K] [--json]");
}

/** `fermix roles check`: validates [roles.*] (unknown groups are named) and lists what each role reaches. Needs no daemon. */
/**
 * `fermix roles list` (every role, the built-in operator included, and which agent uses it) and
 * `fermix roles check` (validates [roles.*] and lists what each role reaches: its groups, and network
 * capabilities only when it grants `net` — exactly what the agent is offered and the gate allows).
 */
export function rolesVerb(io: CliIo, paths: HomePaths, sub: string | undefined, json: boolean): number {
  if (sub !== 'check' && sub !== 'list') throw new UsageError('usage: fermix roles list|check [--json]');
  const { config } = loadConfig(paths.config);
  const registry = createRegistry();
  for (const cap of builtinToolsFor(config)) registry.register(cap);
  const mainRole = config.agents.main.role ?? BUILTIN_OPERATOR_ROLE;
  const roles = configuredRoles(config.roles)
    .filter((role) => sub === 'list' || role.name !== BUILTIN_OPERATOR_ROLE)
    .map((role) => ({
      name: role.name,
      builtin: role.name === BUILTIN_OPERATOR_ROLE,
      groups: [...role.tools],
      used_by: role.name === mainRole ? ['agents.main'] : [],
      capabilities: registry.list().filter((cap) => roleReaches(role, cap, isNetwork(cap))).map((cap) => cap.name),
    }));
  if (json) io.out(JSON.stringify({ schema_version: 1, ok: true, result: { roles, main: mainRole } }));
  else if (roles.length === 0) io.out('No roles configured. Add one to config.toml: [roles.reviewer] tools = ["fs", "git"]');
  else {
    for (const role of roles) {
      const where = role.used_by.length > 0 ? ` (used by ${role.used_by.join(', ')})` : '';
      const what = role.builtin ? 'every group' : role.capabilities.join(' ') || '(no built-in capabilities)';
      io.out(`${role.name}${role.builtin ? ' (built in)' : ''} [${role.groups.join(', ')}]${where}: ${what}`);
    }
  }
  return EXIT.ok;
}
