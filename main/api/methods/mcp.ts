import { z } from 'zod';
import { defineMethod } from '../define.js';

/** MCP servers (outbound `[mcp.servers]`) and inbound MCP: what `fermix mcp` and the window's MCP section call. */
const name = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/);

export const mcpServerStateSchema = z.object({
  name: z.string(),
  transport: z.enum(['stdio', 'streamable_http']),
  /** Content sent to its tools leaves the machine: the window and doctor say so. */
  remote: z.boolean(),
  /** needs_auth: an `oauth = true` server waits for `fermix mcp auth login NAME` (the window's Sign in). */
  status: z.enum(['connecting', 'ready', 'retrying', 'quarantined', 'disabled', 'needs_auth']),
  tool_count: z.number().int(),
  tools: z.array(z.string()),
  last_error: z.string().nullable(),
  attempts: z.number().int(),
  pid: z.number().int().nullable(),
  /** Upstream names whose definitions changed and wait for the owner's answer (pinning). */
  changed_tools: z.array(z.string()),
});

const toolSchema = z.object({
  name: z.string(),
  upstream: z.string(),
  description: z.string(),
  policy_class: z.string(),
  hidden_from_agent: z.boolean(),
  changed: z.boolean(),
  declined: z.boolean(),
  differences: z.array(z.string()),
});

const exposedSchema = z.object({ name: z.string(), description: z.string(), inputSchema: z.record(z.string(), z.unknown()), policy_class: z.string() });

export const mcpMethods = {
  'mcp.list': defineMethod({
    description: 'Every configured MCP server: transport, status, tool count and last error.',
    input: z.object({}).strict().default({}),
    output: z.object({ servers: z.array(mcpServerStateSchema) }),
  }),
  'mcp.tools': defineMethod({
    description: 'The tools one server offers, with the changed definitions waiting for an answer.',
    input: z.object({ name }).strict(),
    output: z.object({ server: mcpServerStateSchema, tools: z.array(toolSchema) }),
  }),
  'mcp.restart': defineMethod({
    description: 'Start one server fresh (a quarantined one too).',
    input: z.object({ name }).strict(),
    output: z.object({ server: mcpServerStateSchema }),
  }),
  'mcp.reload': defineMethod({
    description: 'Re-read [mcp.servers] from config.toml and start, stop or restart what changed.',
    input: z.object({}).strict().default({}),
    output: z.object({ servers: z.array(mcpServerStateSchema) }),
  }),
  'mcp.set_enabled': defineMethod({
    description: 'Enable or disable one server (written to config.toml); enabling starts a quarantined one fresh.',
    input: z.object({ name, enabled: z.boolean() }).strict(),
    output: z.object({ server: mcpServerStateSchema }),
  }),
  'mcp.add': defineMethod({
    description: 'Add a server to config.toml: a stdio command with args, or a Streamable HTTP url.',
    input: z.object({
      name, command: z.string().min(1).optional(), args: z.array(z.string()).default([]), url: z.url().optional(),
      /** stdio only. A `secret` value goes to the secret store and config.toml keeps `@keyring:<item>`. */
      env: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/), z.object({ value: z.string().min(1).max(8192), secret: z.boolean().default(false) }).strict()).default({}),
    }).strict(),
    output: z.object({ server: mcpServerStateSchema }),
  }),
  'mcp.remove': defineMethod({
    description: 'Remove a server from config.toml, stop it and forget its pinned definitions.',
    input: z.object({ name }).strict(),
    output: z.object({ removed: z.boolean(), pins_forgotten: z.number().int() }),
  }),
  'mcp.set_tool_hidden': defineMethod({
    description: 'Hide one tool of a server from the agent, or show it again ([mcp.servers.<s>.tools.<t>] hidden_from_agent).',
    input: z.object({ name, tool: z.string().min(1).max(128), hidden: z.boolean() }).strict(),
    output: z.object({ server: mcpServerStateSchema }),
  }),
  'mcp.logs': defineMethod({
    description: 'The last lines of one server\'s own log (its stderr and lifecycle).',
    input: z.object({ name, lines: z.number().int().min(1).max(10_000).default(100) }).strict(),
    output: z.object({ file: z.string(), lines: z.array(z.string()) }),
  }),
  'mcp.pins_answer': defineMethod({
    description: 'Answer a server update: re-pin every changed tool definition, or keep them blocked.',
    input: z.object({ name, decision: z.enum(['repin', 'block']) }).strict(),
    output: z.object({ tools: z.array(z.string()) }),
  }),
  'mcp.auth_login.start': defineMethod({
    description: 'Start the OAuth sign-in of an `oauth = true` server: returns the URL to open; the loopback redirect completes it.',
    input: z.object({ name, port: z.number().int().min(0).max(65535).optional(), timeout_ms: z.number().int().min(1_000).max(1_800_000).optional() }).strict(),
    output: z.object({ name: z.string(), url: z.string(), redirect_uri: z.string() }),
  }),
  'mcp.auth_login.wait': defineMethod({
    description: 'Wait until the started sign-in completes and the server has connected with the new tokens (or fails, naming the fix).',
    input: z.object({ name, timeout_ms: z.number().int().min(1_000).max(1_800_000).default(300_000) }).strict(),
    output: z.object({ name: z.string(), signed_in: z.boolean(), server: mcpServerStateSchema }),
  }),
  'mcp.auth_logout': defineMethod({
    description: 'Sign out of a server: delete its OAuth tokens and client from the secret store (revoked upstream where it allows); it then waits in needs_auth.',
    input: z.object({ name }).strict(),
    output: z.object({ name: z.string(), deleted: z.boolean(), revoked_upstream: z.boolean(), server: mcpServerStateSchema }),
  }),
  'mcp.inbound_list': defineMethod({
    description: 'What inbound MCP exposes now (`fermix mcp list-exposed`, and `fermix mcp serve`).',
    input: z.object({}).strict().default({}),
    output: z.object({ enabled: z.boolean(), trust: z.enum(['operator', 'guest']), tools: z.array(exposedSchema) }),
  }),
  'mcp.inbound_call': defineMethod({
    description: 'One inbound MCP tool call (from `fermix mcp serve`): through the invoke boundary with origin mcp-inbound.',
    input: z.object({ name: z.string().min(1), arguments: z.record(z.string(), z.unknown()).default({}) }).strict(),
    output: z.object({ content: z.array(z.record(z.string(), z.unknown())), structuredContent: z.record(z.string(), z.unknown()).optional(), isError: z.boolean().optional() }),
  }),
};
