/**
 * The plugin manifest (`plugin.json`, reference §3.2), as a strict zod schema: every object refuses
 * unknown fields, so a typo in a manifest is a named error instead of a silently ignored setting.
 * `decodeManifest` is the one entry point: it names the file and the field path of the first problem.
 */
import { z } from 'zod';
import { FermixError } from '../core/errors.js';
import { templateProblem } from './rails/http/template.js';
import { parsePointer } from './rails/mcp-hosted/json-pointer.js';
import { ONE_SHOT_PARSE } from '../core/one-shot-parse.js';

export const PLUGIN_NAME = /^[a-z][a-z0-9_]{0,63}$/;
const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;
const CONFIG_KEY = /^[A-Z][A-Z0-9_]*$/;
const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$/;
const HEADER_NAME = /^[A-Za-z0-9-]{1,64}$/;
const utf8Bytes = (text: string) => new TextEncoder().encode(text).length;

/** A JSON value a template may hold: strings can carry `{param}` placeholders, objects and arrays nest. */
export type TemplateValue = string | number | boolean | null | TemplateValue[] | { [key: string]: TemplateValue };

/**
 * The schemas are built on the first decodeManifest, not when the module loads: every daemon start loads
 * this module (config.toml's plugin settings check names with PLUGIN_NAME), and building them was ~2-4 ms
 * (CPU profile) of a start that had no plugin manifest to read.
 */
let schemas: ManifestSchemas | undefined;
const manifestSchemas = (): ManifestSchemas => (schemas ??= buildManifestSchemas());
type ManifestSchemas = ReturnType<typeof buildManifestSchemas>;

function buildManifestSchemas() {
  const nonEmpty = z.string().min(1);
  const semver = z.string().regex(SEMVER, 'must be a semver X.Y.Z');
  const relativePath = z.string().min(1).refine((path) => !path.startsWith('/') && !path.split(/[\\/]/).includes('..'), 'must be a path inside the plugin directory');

  const templateValue: z.ZodType<TemplateValue> = z.lazy(() => z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(templateValue), z.record(z.string(), templateValue)]));

  const extractSchema = z.object({ path: z.string().min(1).optional(), fields: z.array(nonEmpty).optional() }).strict();

  const cursorPaginate = z.object({
    mode: z.literal('cursor').optional(),
    items_path: nonEmpty,
    cursor_path: nonEmpty,
    cursor_param: nonEmpty,
    cursor_in: z.enum(['query', 'body']),
    max_pages: z.number().int().min(1).max(50).optional(),
    fields: z.array(nonEmpty).optional(),
  }).strict();
  const idWindowPaginate = z.object({
    mode: z.literal('id_window'),
    items_path: z.string().min(1).optional(),
    id_field: nonEmpty,
    cursor_param: nonEmpty,
    cursor_in: z.literal('query'),
    max_pages: z.number().int().min(1).max(50).optional(),
    fields: z.array(nonEmpty).optional(),
  }).strict();
  /** `page_number` is GitHub's `per_page`/`page` style (reference §3.4): the page counter is the cursor. */
  const pageNumberPaginate = z.object({
    mode: z.literal('page_number'),
    items_path: z.string().min(1).optional(),
    page_param: nonEmpty,
    max_pages: z.number().int().min(1).max(50).optional(),
    fields: z.array(nonEmpty).optional(),
  }).strict();

  const httpRequestSchema = z.object({
    method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']),
    url: z.string().min(1),
    query: z.record(z.string(), templateValue).optional(),
    headers: z.record(z.string().regex(HEADER_NAME, 'must be a header name'), z.string()).optional(),
    body: z.record(z.string(), templateValue).optional(),
    success: z.array(z.number().int().min(200).max(299)).min(1).optional(),
    /** Slack-style APIs answer 200 with `{ok:false, error}`: the rail reads the status from the body. */
    body_status: z.object({ ok_field: nonEmpty, error_field: nonEmpty, needed_field: nonEmpty.optional() }).strict().optional(),
    extract: extractSchema.optional(),
    paginate: z.union([idWindowPaginate, pageNumberPaginate, cursorPaginate]).optional(),
    /** Google APIs: a 403's `error.errors[].reason` separates missing scope, file permission, organizer-only and rate limit. */
    error_model: z.literal('google').optional(),
    /** Bodies that are not plain JSON (Gmail's base64url RFC 2822 `raw`, Drive's multipart upload); see rails/http/encode.ts. */
    encode: z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('rfc2822'), field: nonEmpty, headers: z.record(z.string().regex(HEADER_NAME, 'must be a header name'), z.string()), text: z.string() }).strict(),
      z.object({ kind: z.literal('multipart_related'), media: z.string(), media_type: z.string().min(1) }).strict(),
    ]).optional(),
  }).strict();

  const jsonSchemaObject = z.record(z.string(), z.unknown()).refine((schema) => schema.type === 'object', 'must be a JSON Schema with type "object"');

  /** A JSON Pointer (RFC 6901) to a value inside the arguments or the result; "" (the whole document) is not one here. */
  const jsonPointer = z.string().max(256).refine((pointer) => pointer !== '' && parsePointer(pointer) !== null, 'must be a JSON Pointer (RFC 6901) like "/limit", with ~0 and ~1 as the only escapes');
  /** API 3 (reference §3.2): how many items one call may ask for and bring back (rails/mcp-hosted/collection-policy.ts). */
  const collectionPolicySchema = z.object({
    paginated: z.literal(true),
    request_limit_pointer: jsonPointer,
    default_limit: z.number().int().min(1).max(100),
    result_items_pointer: jsonPointer,
    max_returned_items: z.number().int().min(1).max(100),
  }).strict().refine((policy) => policy.default_limit <= policy.max_returned_items, { message: 'default_limit must not exceed max_returned_items', path: ['default_limit'] });
  /** API 3 (reference §3.2): argument values checked before anything is sent (rails/mcp-hosted/argument-guards.ts). */
  const argumentGuardSchema = z.object({
    pointer: jsonPointer,
    kind: z.enum(['public_http_url_array', 'bounded_visible_ascii_array']),
    max_items: z.number().int().min(1).max(100),
  }).strict();

  const toolSchema = z.object({
    name: z.string().regex(TOOL_NAME, 'must match ^[A-Za-z0-9_-]{1,64}$'),
    description: nonEmpty.refine((text) => utf8Bytes(text) <= 100, 'must be at most 100 bytes'),
    read_only: z.boolean(),
    policy_class: z.enum(['read_only', 'read_write', 'network', 'external_api']).default('external_api'),
    rail: z.enum(['http', 'mcp']).default('http'),
    requires_scopes: z.array(nonEmpty).optional(),
    access_sensitive: z.boolean().optional(),
    requires_setting: z.string().regex(CONFIG_KEY).optional(),
    parameters: jsonSchemaObject.optional(),
    request: httpRequestSchema.optional(),
    // API 3 remote tools (reference §3.2): the pinned upstream contract and what the call may be replayed or scoped as.
    replay_safe: z.boolean().optional(),
    required_credential_scope: z.enum(['read', 'write']).optional(),
    output_schema: z.record(z.string(), z.unknown()).nullable().optional(),
    upstream_annotations: z.record(z.string(), z.unknown()).optional(),
    descriptor_sha256: z.string().regex(/^[0-9a-f]{64}$/, 'must be 64 lowercase hex digits').optional(),
    collection_policy: collectionPolicySchema.optional(),
    argument_guards: z.array(argumentGuardSchema).min(1).max(16, 'must hold at most 16 guards').optional(),
  }).strict().superRefine((tool, context) => {
    if (tool.rail === 'http' && tool.request === undefined) context.addIssue({ code: 'custom', path: ['request'], message: 'is required for an http-rail tool' });
    if (tool.rail === 'http' && tool.parameters === undefined) context.addIssue({ code: 'custom', path: ['parameters'], message: 'is required for an http-rail tool' });
    if (tool.rail === 'mcp' && tool.request !== undefined) context.addIssue({ code: 'custom', path: ['request'], message: 'is only for http-rail tools' });
  });

  const healthCheckSchema = z.union([
    z.object({ kind: z.literal('local_readiness'), requires_auth: z.literal(true) }).strict(),
    z.object({
      url: z.string().min(1), method: z.enum(['GET', 'POST']), success: z.array(z.number().int()).min(1), ok_field: z.string().min(1).optional(),
      /** Vendors that refuse a request without them (Notion-Version, Discord's User-Agent). */
      headers: z.record(z.string().regex(HEADER_NAME, 'must be a header name'), z.string()).optional(),
      /** Where the connected account's name is in the answer (`name`, `username`, `inboxes[0].inbox_id`). */
      account_path: nonEmpty.optional(),
    }).strict(),
  ]);

  const apiKeyAuth = z.object({
    type: z.literal('api_key'),
    key_name: z.string().regex(CONFIG_KEY, 'must match ^[A-Z][A-Z0-9_]*$'),
    header: z.string().regex(HEADER_NAME).default('authorization'),
    scheme: z.string().regex(/^[A-Za-z]{1,32}$/).default('Bearer'),
    prompt: nonEmpty,
    help_url: z.string().url().optional(),
    scopes: z.array(nonEmpty).default([]),
    validation: z.object({
      prefix: z.string().min(1).optional(),
      min_bytes: z.number().int().min(1).optional(),
      max_bytes: z.number().int().min(1).max(8192).optional(),
      charset: z.literal('visible_ascii').optional(),
      forbid_whitespace: z.boolean().optional(),
    }).strict().optional(),
    health_check: healthCheckSchema.optional(),
  }).strict();
  const oauthAuth = z.object({
    type: z.literal('oauth2'),
    provider: z.enum(['google', 'github', 'notion', 'x', 'slack', 'tesla']),
    scopes: z.array(nonEmpty),
    profile_key: nonEmpty.optional(),
    account_mode: z.literal('single').optional(),
  }).strict();
  const noAuth = z.object({ type: z.literal('none') }).strict();
  const authSchema = z.discriminatedUnion('type', [noAuth, apiKeyAuth, oauthAuth]);

  const localRuntime = z.object({
    kind: z.enum(['node', 'python', 'binary', 'escript']),
    command: z.string().regex(/^[A-Za-z0-9._-]+$/, 'must be one bare executable name').refine((command) => command !== '..' && command !== '.', 'must be one bare executable name'),
    args: z.array(z.string()).default([]),
    vendored: z.boolean().default(false),
    min_version: z.string().regex(/^\d+(\.\d+){0,2}$/).optional(),
    env: z.record(z.string(), z.string()).optional(),
    pass_env: z.array(z.string()).optional(),
    cwd: relativePath.optional(),
    requires_setting: z.string().regex(CONFIG_KEY).optional(),
    tool_name_mode: z.literal('prefix').default('prefix'),
  }).strict();
  const remoteRuntime = z.object({
    kind: z.literal('remote_mcp'),
    transport: z.literal('streamable_http'),
    protocol_version: z.literal('2025-06-18'),
    base_url: z.string().min(1),
    mcp_path: z.string().regex(/^\/[A-Za-z0-9._~\/-]*$/, 'must be an absolute literal path'),
    tool_name_mode: z.enum(['prefix', 'preserve']),
  }).strict();

  const interfaceSchema = z.object({
    short_description: nonEmpty.optional(),
    developer_name: nonEmpty.optional(),
    brand_color: z.string().regex(/^#[0-9A-Fa-f]{6}$/).optional(),
    logo: relativePath.optional(),
    icon: relativePath.optional(),
    privacy_policy_url: z.string().url().optional(),
    terms_of_service_url: z.string().url().optional(),
  }).strict();

  const manifestSchema = z.object({
    schema_version: z.literal(2, { message: 'must be 2 (the manifest format this Fermix reads)' }),
    name: z.string().regex(PLUGIN_NAME, 'must match ^[a-z][a-z0-9_]{0,63}$').refine((name) => !name.startsWith('mcp_'), 'must not start with mcp_'),
    display_name: nonEmpty,
    description: nonEmpty,
    category: nonEmpty,
    version: semver,
    min_core_version: semver,
    plugin_api: z.union([z.literal(2), z.literal(3)]),
    default_enabled: z.boolean().optional(),
    interface: interfaceSchema.optional(),
    auth: authSchema,
    tools: z.array(toolSchema).min(1),
    runtime: z.discriminatedUnion('kind', [localRuntime, remoteRuntime]).optional(),
    config: z.array(z.object({
      key: z.string().regex(CONFIG_KEY, 'must match ^[A-Z][A-Z0-9_]*$'),
      prompt: nonEmpty,
      required: z.boolean(),
      kind: z.enum(['text', 'boolean']).default('text'),
    }).strict()).default([]),
    skills: z.array(z.object({ name: nonEmpty, path: relativePath }).strict()).default([]),
    // API 3 hosted contract blocks (reference §3.2): profiles of tools, hidden setup tools, the one pinned workspace, result envelope.
    tool_profiles: z.array(z.object({
      name: z.string().regex(/^[a-z][a-z0-9_]{0,31}$/), display_name: nonEmpty, default: z.boolean(),
      required_credential_scope: z.enum(['read', 'write']), scope_visibility: z.enum(['none', 'all_scoped_tools_omitted']), tools: z.array(nonEmpty).min(1),
    }).strict()).optional(),
    setup_tools: z.array(nonEmpty).optional(),
    resource_scope: z.object({ kind: z.literal('single_workspace'), discovery_tool: nonEmpty, id_field: nonEmpty, label_field: nonEmpty, argument: nonEmpty }).strict().optional(),
    result_contract: z.object({ kind: z.literal('json_boolean'), success_field: nonEmpty, status_field: nonEmpty, message_field: nonEmpty }).strict().optional(),
    // Calls per agent turn (enforced by the hosted rail, turn-budget.ts); paginated = calls that pass a page cursor.
    budgets: z.object({ agent_turn_calls: z.number().int().min(1).max(100), agent_turn_paginated_calls: z.number().int().min(0) }).strict().optional(),
  }).strict();
  return { httpRequestSchema, toolSchema, authSchema, manifestSchema };
}

export type HttpRequestTemplate = z.infer<ManifestSchemas['httpRequestSchema']>;
export type ManifestTool = z.infer<ManifestSchemas['toolSchema']>;
export type ManifestAuth = z.infer<ManifestSchemas['authSchema']>;
export type PluginManifest = z.infer<ManifestSchemas['manifestSchema']>;
export type ManifestInput = z.input<ManifestSchemas['manifestSchema']>;

function invalidManifest(file: string, field: string, problem: string): FermixError {
  return new FermixError({
    code: 'invalid_manifest',
    message: `${file}: field \`${field}\` ${problem}.`,
    hint: 'Fix the plugin manifest (reference §3.2), or reinstall the plugin with `fermix plugins install NAME`.',
    data: { file, field },
  });
}

function fieldPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) out += typeof part === 'number' ? `[${part}]` : out === '' ? String(part) : `.${String(part)}`;
  return out || '(root)';
}

/** Cross-field rules zod's shape cannot say: names namespaced and unique, scopes declared, rails backed by a runtime. */
function crossCheck(manifest: PluginManifest, file: string): void {
  const seen = new Set<string>();
  manifest.tools.forEach((tool, index) => {
    const at = `tools[${index}].name`;
    if (!tool.name.startsWith(`${manifest.name}_`)) throw invalidManifest(file, at, `must start with "${manifest.name}_"`);
    if (seen.has(tool.name)) throw invalidManifest(file, at, `repeats the tool name ${tool.name}`);
    seen.add(tool.name);
    if (tool.requires_scopes && manifest.auth.type === 'oauth2') {
      const declared = new Set(manifest.auth.scopes);
      const missing = tool.requires_scopes.filter((scope) => !declared.has(scope));
      if (missing.length > 0) throw invalidManifest(file, `tools[${index}].requires_scopes`, `names scopes the auth block does not declare (${missing.join(', ')})`);
    }
    if (tool.request) {
      const problem = templateProblem(tool.request);
      if (problem) throw invalidManifest(file, `tools[${index}].request.${problem.field}`, problem.message);
    }
    if (tool.requires_setting && !manifest.config.some((entry) => entry.key === tool.requires_setting && entry.kind === 'boolean')) {
      throw invalidManifest(file, `tools[${index}].requires_setting`, 'must name a config key of kind boolean');
    }
  });
  if (manifest.tools.some((tool) => tool.rail === 'mcp') && manifest.runtime === undefined) throw invalidManifest(file, 'runtime', 'is required when a tool uses the mcp rail');
  if (manifest.runtime?.kind === 'remote_mcp' && manifest.plugin_api !== 3) throw invalidManifest(file, 'runtime.kind', 'remote_mcp needs plugin_api 3');
  if (manifest.runtime?.kind === 'remote_mcp') remoteCrossCheck(manifest, file);
  else if (manifest.budgets) throw invalidManifest(file, 'budgets', 'is enforced only for a remote_mcp plugin');
  else {
    manifest.tools.forEach((tool, index) => {
      for (const field of ['collection_policy', 'argument_guards'] as const) if (tool[field] !== undefined) throw invalidManifest(file, `tools[${index}].${field}`, 'is enforced only for a remote_mcp plugin (plugin_api 3)');
    });
  }
  if (manifest.budgets && manifest.budgets.agent_turn_paginated_calls > manifest.budgets.agent_turn_calls) throw invalidManifest(file, 'budgets.agent_turn_paginated_calls', 'must not exceed agent_turn_calls');
  if (manifest.auth.type === 'api_key' && manifest.auth.validation !== undefined && manifest.plugin_api !== 3) throw invalidManifest(file, 'auth.validation', 'is a plugin_api 3 field');
  manifest.skills.forEach((skill, index) => {
    if (skill.name === manifest.name) throw invalidManifest(file, `skills[${index}].name`, 'must differ from the plugin name');
  });
}

/** A hosted (remote_mcp) manifest: every tool pinned, profiles and setup tools naming declared tools, exactly one default profile. */
function remoteCrossCheck(manifest: PluginManifest, file: string): void {
  const names = new Set(manifest.tools.map((tool) => tool.name));
  manifest.tools.forEach((tool, index) => {
    if (tool.rail !== 'mcp') throw invalidManifest(file, `tools[${index}].rail`, 'must be mcp for a remote_mcp plugin');
    for (const field of ['replay_safe', 'required_credential_scope', 'output_schema', 'upstream_annotations', 'descriptor_sha256'] as const) {
      if (tool[field] === undefined) throw invalidManifest(file, `tools[${index}].${field}`, 'is required for a remote_mcp tool (plugin_api 3)');
    }
  });
  if (manifest.auth.type !== 'api_key' || manifest.auth.header.toLowerCase() !== 'authorization' || manifest.auth.scheme !== 'Bearer') throw invalidManifest(file, 'auth', 'must be api_key with Authorization: Bearer for a remote_mcp plugin');
  const setup = new Set(manifest.setup_tools ?? []);
  for (const name of setup) if (!names.has(name)) throw invalidManifest(file, 'setup_tools', `names ${name}, which is not a declared tool`);
  const profiles = manifest.tool_profiles ?? [];
  if (profiles.length > 0 && profiles.filter((profile) => profile.default).length !== 1) throw invalidManifest(file, 'tool_profiles', 'must have exactly one default profile');
  profiles.forEach((profile, index) => {
    for (const name of profile.tools) {
      if (!names.has(name)) throw invalidManifest(file, `tool_profiles[${index}].tools`, `names ${name}, which is not a declared tool`);
      if (setup.has(name)) throw invalidManifest(file, `tool_profiles[${index}].tools`, `names the setup tool ${name}`);
    }
  });
  const scope = manifest.resource_scope;
  if (scope && !setup.has(scope.discovery_tool)) throw invalidManifest(file, 'resource_scope.discovery_tool', 'must be one of setup_tools');
  manifest.tools.forEach((tool, index) => pointerCrossCheck(tool, `tools[${index}]`, scope?.argument, file));
}

/** Pointers may not reach the injected workspace argument, and two guards may not watch the same value. */
function pointerCrossCheck(tool: ManifestTool, at: string, scopeArgument: string | undefined, file: string): void {
  const reachesScope = (pointer: string) => scopeArgument !== undefined && parsePointer(pointer)?.[0] === scopeArgument;
  if (tool.collection_policy && reachesScope(tool.collection_policy.request_limit_pointer)) throw invalidManifest(file, `${at}.collection_policy.request_limit_pointer`, `points into ${scopeArgument}, which the rail injects`);
  const seen = new Set<string>();
  tool.argument_guards?.forEach((guard, index) => {
    if (reachesScope(guard.pointer)) throw invalidManifest(file, `${at}.argument_guards[${index}].pointer`, `points into ${scopeArgument}, which the rail injects`);
    if (seen.has(guard.pointer)) throw invalidManifest(file, `${at}.argument_guards[${index}].pointer`, `repeats ${guard.pointer}`);
    seen.add(guard.pointer);
  });
}

/**
 * Decodes a manifest from its JSON text. `file` names it in errors; `directoryName`, when given, must
 * equal the manifest's name (reference §3.2). The result is plain data, already defaulted.
 */
export function decodeManifest(text: string, file: string, directoryName?: string): PluginManifest {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw invalidManifest(file, '(root)', `is not valid JSON (${(error as Error).message})`);
  }
  if (raw !== null && typeof raw === 'object' && 'schema_version' in raw && typeof raw.schema_version === 'number' && raw.schema_version !== 2) {
    throw invalidManifest(file, 'schema_version', `is ${raw.schema_version}, a manifest format this Fermix does not read`);
  }
  const parsed = manifestSchemas().manifestSchema.safeParse(raw, ONE_SHOT_PARSE);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const keys = issue.code === 'unrecognized_keys' ? (issue as { keys: string[] }).keys : [];
    if (keys.length > 0) throw invalidManifest(file, fieldPath([...issue.path, keys[0]]), 'is not a known field');
    throw invalidManifest(file, fieldPath(issue.path), issue.message);
  }
  const manifest = parsed.data;
  if (directoryName !== undefined && manifest.name !== directoryName) throw invalidManifest(file, 'name', `is "${manifest.name}" but the directory is "${directoryName}"`);
  crossCheck(manifest, file);
  return manifest;
}
