/**
 * The tool_search corpus (bench/data): real-world tool names and descriptions of public MCP servers
 * and APIs, turned into capabilities as an MCP client or a plugin would register them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Capability } from '../../main/core/capabilities/index.js';

export interface CorpusTool {
  name: string;
  server: string;
  description: string;
  parameters: string[];
}

const DATA = join(import.meta.dirname, '..', 'data');

export function loadCorpus(): CorpusTool[] {
  return (JSON.parse(readFileSync(join(DATA, 'tool-corpus.json'), 'utf8')) as { tools: CorpusTool[] }).tools;
}

export function loadQueries(): { query: string; expected: string }[] {
  return (JSON.parse(readFileSync(join(DATA, 'tool-queries.json'), 'utf8')) as { queries: { query: string; expected: string }[] }).queries;
}

/** Half the corpus arrives as MCP tools, half as plugin tools: both kinds are deferred. */
export function toCapability(tool: CorpusTool, index: number, rename?: string): Capability {
  const asPlugin = index % 2 === 0;
  const properties = Object.fromEntries(tool.parameters.map((p) => [p, { type: 'string', description: `The ${p.replace(/_/g, ' ')}.` }]));
  return {
    name: rename ?? tool.name,
    description: tool.description,
    parameters: { type: 'object', properties, required: tool.parameters.slice(0, 1) },
    kind: asPlugin ? 'builtin' : 'mcp',
    hidden_from_agent: false,
    policy_class: 'external_api',
    metadata: asPlugin ? { category: 'plugin', plugin: tool.server, plugin_owned: true } : { category: 'mcp', mcp_server: tool.server },
    group: asPlugin ? 'plugin' : 'mcp',
    scope_requirements: [],
    audit_behavior: 'full',
    is_stateful: false,
    executor: async () => ({ text: `${tool.name} ran` }),
  };
}
