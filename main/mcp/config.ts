/**
 * The `[mcp]` section of config.toml (reference §2.5). Every table is strict: an unknown key is a typo
 * (or a removed Fermix key such as `approved` / `requires_approval`), and it stops start-up with its name.
 * Secret values never sit in the file: a header or env value may be `@keyring:NAME`, resolved from the
 * secret store when the server starts.
 */
import { z } from 'zod';
import { POLICY_CLASSES } from '../core/capabilities/capability.js';

/** Same spelling as `[providers] api_key_ref`. */
export const SECRET_REF = /^@keyring:([A-Za-z_][A-Za-z0-9_]{0,127})$/;
const envName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'env names must be shell identifiers');
export const SERVER_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

const toolOverride = z.strictObject({
  policy_class: z.enum(POLICY_CLASSES).optional(),
  hidden_from_agent: z.boolean().optional(),
});

const envValue = z.string().refine((value) => !value.startsWith('$env:'), {
  error: '`$env:` values were removed: list the name in pass_env instead (it is resolved through [sandbox.env])',
});

/** connect, initialize, tools/list and tools/call each get this much (progress extends a call). */
export const DEFAULT_TIMEOUT_MS = 60_000;

export const mcpServerSchema = z.strictObject({
  command: z.string().min(1).optional(),
  args: z.array(z.string()).default([]),
  env: z.record(envName, envValue).default({}),
  pass_env: z.array(envName).default([]),
  cwd: z.string().min(1).optional(),
  url: z.url({ protocol: /^https?$/ }).optional(),
  /** Header values may be `@keyring:NAME` (the secret store); plain values are sent as written. */
  headers: z.record(z.string().regex(/^[A-Za-z0-9-]+$/), z.string()).default({}),
  /** Streamable HTTP only: OAuth through the SDK's client auth, tokens kept in the secret store. */
  oauth: z.boolean().default(false),
  enabled: z.boolean().default(true),
  timeout_ms: z.number().int().min(100).max(600_000).default(DEFAULT_TIMEOUT_MS),
  tools: z.record(z.string(), toolOverride).default({}),
}).superRefine((server, context) => {
  if ((server.command === undefined) === (server.url === undefined)) {
    context.addIssue({ code: 'custom', path: [], message: 'give exactly one of `command` (stdio) or `url` (Streamable HTTP)' });
  }
  for (const name of server.pass_env) {
    if (Object.prototype.hasOwnProperty.call(server.env, name)) context.addIssue({ code: 'custom', path: ['pass_env'], message: `${name} is listed in both env and pass_env` });
  }
  if (server.url !== undefined && (server.args.length > 0 || server.pass_env.length > 0 || Object.keys(server.env).length > 0 || server.cwd !== undefined)) {
    context.addIssue({ code: 'custom', path: [], message: 'args, env, pass_env and cwd apply to stdio servers (`command`) only' });
  }
  if (server.command !== undefined && (server.oauth || Object.keys(server.headers).length > 0)) {
    context.addIssue({ code: 'custom', path: [], message: 'headers and oauth apply to Streamable HTTP servers (`url`) only' });
  }
});

export const INBOUND_POLICY_CLASSES = ['read_only', 'read_write', 'exec', 'network'] as const;

export const mcpInboundSchema = z.strictObject({
  enabled: z.boolean().default(false),
  trust: z.enum(['operator', 'guest']).default('operator'),
  /** read_only is always exposed (when enabled); the others only when listed. */
  policy_classes: z.array(z.enum(INBOUND_POLICY_CLASSES)).default(['read_only']),
  /** Bearer token for `/mcp`: `@keyring:NAME` (required for the HTTP route to answer anything but 401). */
  auth_token_ref: z.string().regex(SECRET_REF, 'must look like @keyring:FERMIX_MCP_TOKEN').optional(),
  allowed_tools: z.array(z.string()).optional(),
  denied_tools: z.array(z.string()).default([]),
});

export const mcpConfigSchema = z.strictObject({
  servers: z.record(z.string().regex(SERVER_NAME, 'server names are letters, digits, _ and - (at most 64)'), mcpServerSchema).default({}),
  inbound: mcpInboundSchema.prefault({}),
});

export type McpConfig = z.output<typeof mcpConfigSchema>;
export type McpServerConfig = z.output<typeof mcpServerSchema>;
export type McpInboundConfig = z.output<typeof mcpInboundSchema>;

export function transportOf(server: McpServerConfig): 'stdio' | 'streamable_http' {
  return server.url !== undefined ? 'streamable_http' : 'stdio';
}

/** `@keyring:NAME` → NAME, or null for a plain value. */
export function secretRefName(value: string): string | null {
  return SECRET_REF.exec(value)?.[1] ?? null;
}
