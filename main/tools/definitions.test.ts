import Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import type { Capability, ExecutionContext, JsonSchema } from '../core/capabilities/capability.js';
import { groupFor } from '../core/capabilities/groups.js';
import { FermixError } from '../core/errors.js';
import { EXAMPLE_NOTE_SEPARATOR } from './define-builtin.js';
import {
  ALWAYS_ON_BUILTINS,
  BUILTIN_INPUT_SCHEMAS,
  BUILTIN_TOOLS,
  COMPUTER_USE_TOOL,
  DEFERRAL_BRIDGES,
  SCOPE_NAMES,
} from './index.js';

/** The seed's built-in table (000, "Built-in tools"): name → [policy class, category]. */
const EXPECTED: Record<string, [string, string]> = {
  shell: ['exec', 'system'],
  file_read: ['read_only', 'file'],
  file_write: ['read_write', 'file'],
  file_edit: ['read_write', 'file'],
  glob_search: ['read_only', 'file'],
  content_search: ['read_only', 'file'],
  git_read: ['read_only', 'git'],
  git_write: ['read_write', 'git'],
  web_fetch: ['network', 'web'],
  web_search: ['network', 'web'],
  browser: ['network', 'web'],
  memory_recall: ['read_only', 'memory'],
  memory_store: ['read_write', 'memory'],
  memory_sources_list: ['read_only', 'memory'],
  subagents: ['external_api', 'delegation'],
  skill_create: ['read_write', 'skill_admin'],
  skill_reload: ['read_write', 'skill_admin'],
  skill_view: ['exec', 'skill_admin'],
  skill_run: ['exec', 'skill_admin'],
  skill_list: ['read_only', 'system'],
  schedule_job: ['read_write', 'scheduling'],
  update_job: ['read_write', 'scheduling'],
  list_jobs: ['read_only', 'scheduling'],
  list_job_runs: ['read_only', 'scheduling'],
  get_job_run: ['read_only', 'scheduling'],
  run_job_now: ['read_write', 'scheduling'],
  pause_job: ['read_write', 'scheduling'],
  resume_job: ['read_write', 'scheduling'],
  remove_job: ['read_write', 'scheduling'],
  model_routing_config: ['read_write', 'config'],
  generate_image: ['external_api', 'media'],
  tool_help: ['read_only', 'system'],
  request_directory_access: ['external_api', 'system'],
  send_attachment: ['read_only', 'channel'],
  react: ['read_only', 'channel'],
};
const EXPECTED_BRIDGES: Record<string, [string, string]> = {
  tool_search: ['read_only', 'system'],
  tool_describe: ['read_only', 'system'],
  tool_call: ['read_only', 'system'],
};
const EXPECTED_ALL: Record<string, [string, string]> = { ...EXPECTED, ...EXPECTED_BRIDGES, computer_use: ['gui_control', 'computer'] };

const EVERY_TOOL = [...BUILTIN_TOOLS, COMPUTER_USE_TOOL];
const ajv = new Ajv2020({ strict: true, allErrors: true });

function byName(name: string): Capability {
  const found = EVERY_TOOL.find((tool) => tool.name === name);
  if (!found) throw new Error(`test setup: no tool named ${name}`);
  return found;
}

function property(tool: string, name: string): Record<string, unknown> {
  return (byName(tool).parameters.properties as Record<string, Record<string, unknown>>)[name];
}

/** Every property at every depth, with its path, so "describe every field" can be checked. */
function allProperties(schema: Record<string, unknown>, path: string): [string, Record<string, unknown>][] {
  const found: [string, Record<string, unknown>][] = [];
  const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  for (const [name, child] of Object.entries(properties)) {
    found.push([`${path}.${name}`, child]);
    found.push(...allProperties(child, `${path}.${name}`));
  }
  if (schema.items && typeof schema.items === 'object') {
    found.push(...allProperties(schema.items as Record<string, unknown>, `${path}[]`));
  }
  return found;
}

function parseExample(tool: string, example: string): Record<string, unknown> {
  expect(example.startsWith(`${tool} {`), `${tool} example "${example}" must start with the tool name`).toBe(true);
  const separator = example.lastIndexOf(EXAMPLE_NOTE_SEPARATOR);
  expect(separator, `${tool} example "${example}" has no note`).toBeGreaterThan(tool.length);
  return JSON.parse(example.slice(tool.length + 1, separator)) as Record<string, unknown>;
}

function context(registry?: unknown): ExecutionContext {
  return {
    trust: 'operator',
    origin: 'chat',
    signal: new AbortController().signal,
    services: registry === undefined ? {} : { registry },
  };
}

function mapRegistry(capabilities: readonly Capability[]) {
  const entries = new Map(capabilities.map((capability) => [capability.name, capability]));
  return { find: (name: string) => entries.get(name) };
}

async function failureOf(promise: Promise<unknown>): Promise<FermixError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(FermixError);
    return error as FermixError;
  }
  throw new Error('expected the call to fail');
}

describe('built-in tool definitions', () => {
  it('lists exactly the 35 built-ins and the 3 deferral bridges, each name once', () => {
    expect(ALWAYS_ON_BUILTINS.map((tool) => tool.name)).toEqual(Object.keys(EXPECTED));
    expect(DEFERRAL_BRIDGES.map((tool) => tool.name)).toEqual(Object.keys(EXPECTED_BRIDGES));
    const names = BUILTIN_TOOLS.map((tool) => tool.name);
    expect(names).toHaveLength(38);
    expect(new Set(names).size).toBe(38);
    expect(names).not.toContain('computer_use');
    expect(COMPUTER_USE_TOOL.name).toBe('computer_use');
  });

  it('flags the bridges, and only the bridges, as deferral bridges', () => {
    for (const tool of EVERY_TOOL) {
      expect(tool.metadata.deferral_bridge === true, tool.name).toBe(tool.name in EXPECTED_BRIDGES);
    }
  });

  it.each(EVERY_TOOL.map((tool) => [tool.name, tool] as const))('%s matches the seed table and carries full metadata', (name, tool) => {
    const [policyClass, category] = EXPECTED_ALL[name];
    expect(tool.kind).toBe('builtin');
    expect(tool.hidden_from_agent).toBe(false);
    expect(tool.policy_class).toBe(policyClass);
    expect(tool.metadata.category).toBe(category);
    expect(tool.group).toBe(groupFor(name, category));
    expect(tool.description.length).toBeGreaterThan(20);
    expect(tool.metadata.when_to_use?.length ?? 0).toBeGreaterThan(10);
    expect(tool.metadata.failure_modes?.length ?? 0).toBeGreaterThan(0);
    for (const mode of tool.metadata.failure_modes ?? []) {
      expect(mode.tag.trim(), `${name} failure tag`).not.toBe('');
      expect(mode.description.trim(), `${name} failure description`).not.toBe('');
    }
    const examples = tool.metadata.examples ?? [];
    expect(examples.length).toBeGreaterThanOrEqual(1);
    expect(examples.length).toBeLessThanOrEqual(2);
    for (const scope of tool.scope_requirements) expect(SCOPE_NAMES, `${name} scope ${scope}`).toContain(scope);
    expect(['full', 'redact_args', 'metadata_only']).toContain(tool.audit_behavior);
  });

  it.each(EVERY_TOOL.map((tool) => [tool.name, tool] as const))('%s has an object schema that compiles, describes every field, and accepts its examples', (name, tool) => {
    const schema = tool.parameters;
    expect(schema.type).toBe('object');
    expect(typeof schema.properties).toBe('object');
    const validate = ajv.compile(schema);
    for (const [path, child] of allProperties(schema, name)) {
      expect(typeof child.description, `${path} has no description`).toBe('string');
    }
    expect(BUILTIN_INPUT_SCHEMAS[name], `${name} has no zod input schema`).toBeDefined();
    const input = BUILTIN_INPUT_SCHEMAS[name]();
    for (const example of tool.metadata.examples ?? []) {
      const args = parseExample(name, example);
      expect(validate(args), `${example}: ${ajv.errorsText(validate.errors)}`).toBe(true);
      expect(input.safeParse(args).success, `${example} fails the zod schema`).toBe(true);
    }
    if (tool.output_schema) ajv.compile(tool.output_schema);
  });

  it('rejects arguments the schemas forbid (the schemas can fail)', () => {
    const fileRead = ajv.compile(byName('file_read').parameters);
    expect(fileRead({ offset: 3 })).toBe(false);
    expect(fileRead({ path: 'a.txt', offset: 0 })).toBe(false);
    const gitRead = ajv.compile(byName('git_read').parameters);
    expect(gitRead({ command: 'push' })).toBe(false);
    const webSearch = ajv.compile(byName('web_search').parameters);
    expect(webSearch({ query: 'x'.repeat(1025) })).toBe(false);
    expect(webSearch({ query: 'x'.repeat(1024) })).toBe(true);
    const toolCall = ajv.compile(byName('tool_call').parameters);
    expect(toolCall({ name: 'x_whoami', arguments: 'oops' })).toBe(false);
    const subagents = ajv.compile(byName('subagents').parameters);
    expect(subagents({ tasks: [] })).toBe(false);
  });

  it('marks file_read path as required and offset/limit as optional', () => {
    const required = byName('file_read').parameters.required as string[];
    expect(required).toContain('path');
    expect(required).not.toContain('offset');
    expect(required).not.toContain('limit');
    expect(property('file_read', 'offset')).toMatchObject({ type: 'integer', minimum: 1, default: 1 });
  });

  it('carries the reference defaults and ranges', () => {
    expect(property('glob_search', 'max_results')).toMatchObject({ type: 'integer', default: 200, minimum: 1, maximum: 1000 });
    expect(property('content_search', 'max_results')).toMatchObject({ default: 200, minimum: 1, maximum: 1000 });
    expect(property('content_search', 'timeout_ms')).toMatchObject({ default: 30_000, maximum: 120_000 });
    expect(property('content_search', 'regex')).toMatchObject({ type: 'boolean', default: false });
    expect(property('shell', 'timeout_ms')).toMatchObject({ type: 'integer', default: 30_000 });
    expect(property('web_search', 'query')).toMatchObject({ type: 'string', maxLength: 1024 });
    expect(property('tool_search', 'limit')).toMatchObject({ type: 'integer', default: 5, minimum: 1, maximum: 20 });
    expect(property('list_job_runs', 'limit')).toMatchObject({ default: 20, maximum: 100 });
    expect(property('subagents', 'max_concurrency')).toMatchObject({ default: 3, maximum: 8 });
    expect(property('subagents', 'timeout_seconds')).toMatchObject({ default: 300, minimum: 5, maximum: 900 });
    expect(property('browser', 'depth')).toMatchObject({ default: 5, maximum: 20 });
    // z.int()'s ±2^53−1 bounds are dropped: they only cost tokens.
    expect(property('shell', 'timeout_ms')).not.toHaveProperty('maximum');
    for (const [tool, required] of [
      ['file_write', ['path', 'content']],
      ['file_edit', ['path', 'old_string', 'new_string']],
      ['schedule_job', ['name', 'schedule', 'task']],
      ['request_directory_access', ['path', 'reason']],
      ['tool_call', ['name', 'arguments']],
      ['skill_create', ['name', 'description']],
    ] as const) {
      expect(byName(tool).parameters.required, tool).toEqual(required);
    }
  });

  it('defines structured results for content_search and tool_search', () => {
    const contentSearch = ajv.compile(byName('content_search').output_schema as JsonSchema);
    expect(contentSearch({ matches: [{ path: '/w/a.ts', line: 3, text: 'TODO' }], truncated: false })).toBe(true);
    expect(contentSearch({ matches: [{ path: '/w/a.ts', text: 'TODO' }], truncated: false })).toBe(false);
    const toolSearch = ajv.compile(byName('tool_search').output_schema as JsonSchema);
    expect(toolSearch({ query: 'issue', total_available: 4, matches: [{ name: 'github_create_issue', plugin: 'github', description: 'Create an issue.' }] })).toBe(true);
    expect(toolSearch({ query: 'issue', matches: [] })).toBe(false);
  });

  it('sets the audit behaviours and statefulness', () => {
    const redacted = EVERY_TOOL.filter((tool) => tool.audit_behavior === 'redact_args').map((tool) => tool.name);
    expect(redacted.sort()).toEqual(
      ['browser', 'computer_use', 'memory_store', 'model_routing_config', 'shell', 'tool_call', 'web_fetch', 'web_search'].sort(),
    );
    const stateful = EVERY_TOOL.filter((tool) => tool.is_stateful).map((tool) => tool.name);
    expect(stateful.sort()).toEqual(['browser', 'computer_use']);
    expect(byName('tool_call').metadata.secret_fields).toEqual(['arguments']);
  });

  it('has executors for the documentation tools and the core tools of issue 5', () => {
    // Other tools gain executors as their issues land; this list only ever grows.
    const withExecutor = EVERY_TOOL.filter((tool) => tool.executor).map((tool) => tool.name);
    expect(withExecutor).toEqual(expect.arrayContaining([
      'tool_describe', 'tool_help', 'shell', 'file_read', 'file_write', 'file_edit', 'glob_search', 'content_search',
      'git_read', 'git_write', 'request_directory_access', 'send_attachment', 'react',
    ]));
  });
});

describe('tool_help and tool_describe', () => {
  const help = byName('tool_help');
  const describeTool = byName('tool_describe');
  const pluginTool: Capability = {
    name: 'github_create_issue',
    description: 'Create an issue in a GitHub repository.',
    parameters: { type: 'object', required: ['repo', 'title'], properties: { repo: { type: 'string', description: 'owner/name' }, title: { type: 'string' } } },
    kind: 'builtin',
    hidden_from_agent: false,
    policy_class: 'external_api',
    metadata: { category: 'plugin', plugin: 'github', plugin_owned: true, examples: [], failure_modes: [] },
    group: 'plugin',
    scope_requirements: [],
    audit_behavior: 'full',
    is_stateful: false,
  };
  const hiddenTool: Capability = { ...pluginTool, name: 'mcp_vault_read', hidden_from_agent: true };
  const registry = mapRegistry([...BUILTIN_TOOLS, pluginTool, hiddenTool]);

  it('renders the full documentation of file_read', async () => {
    const result = await help.executor!({ name: 'file_read' }, context(registry));
    const fileRead = byName('file_read');
    expect(result.text).toContain('# file_read');
    expect(result.text).toContain(fileRead.description);
    expect(result.text).toContain('Policy class: read_only');
    expect(result.text).toContain('Category: file');
    expect(result.text).toContain('Group: fs');
    expect(result.text).toMatch(/- `path` \(string, required\)/);
    expect(result.text).toMatch(/- `offset` \(integer, optional, default 1/);
    expect(result.text).toContain('Required: path');
    expect(result.text).toContain('"required": [');
    for (const example of fileRead.metadata.examples ?? []) expect(result.text).toContain(example);
    for (const mode of fileRead.metadata.failure_modes ?? []) expect(result.text).toContain(`\`${mode.tag}\` — ${mode.description}`);
    expect(result.text).not.toContain('$schema');
    const validateDoc = ajv.compile(help.output_schema as JsonSchema);
    expect(validateDoc(result.data), ajv.errorsText(validateDoc.errors)).toBe(true);
    expect(result.data).toMatchObject({ name: 'file_read', policy_class: 'read_only', category: 'file', group: 'fs', required: ['path'] });
  });

  it('renders a structured result section when the tool defines one', async () => {
    const result = await help.executor!({ name: ' content_search ' }, context(registry));
    expect(result.text).toContain('## Result');
    expect(result.text).toContain('"truncated"');
  });

  it('fails with missing_name when the name is absent or blank', async () => {
    for (const args of [{}, { name: '' }, { name: '   ' }, { name: 42 }]) {
      const error = await failureOf(help.executor!(args, context(registry)));
      expect(error.code).toBe('missing_name');
      expect(error.hint).toContain('tool_help');
    }
  });

  it('fails with unknown_capability and points to tool_search', async () => {
    const error = await failureOf(help.executor!({ name: 'file_reed' }, context(registry)));
    expect(error.code).toBe('unknown_capability');
    expect(error.message).toContain('file_reed');
    expect(error.hint).toContain('tool_search');
  });

  it('does not document a capability hidden from the agent', async () => {
    const error = await failureOf(describeTool.executor!({ name: 'mcp_vault_read' }, context(registry)));
    expect(error.code).toBe('unknown_capability');
  });

  it('fails loudly when no registry was injected', async () => {
    const error = await failureOf(help.executor!({ name: 'file_read' }, context()));
    expect(error.code).toBe('registry_unavailable');
  });

  it('tool_describe renders a deferred plugin tool like tool_help', async () => {
    const described = await describeTool.executor!({ name: 'github_create_issue' }, context(registry));
    const helped = await help.executor!({ name: 'github_create_issue' }, context(registry));
    expect(described.text).toBe(helped.text);
    expect(described.text).toContain('Plugin: github');
    expect(described.text).toMatch(/- `title` \(string, required\)/);
    expect(described.text).toContain('## Examples\n- none');
    const error = await failureOf(describeTool.executor!({}, context(registry)));
    expect(error.code).toBe('missing_name');
  });
});
