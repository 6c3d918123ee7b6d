// Roles govern real calls (Voss): the run's role narrows what the model is offered and what the invoke
// boundary allows; a network capability needs `net` whatever its group. Through real turns against the
// scripted model server.
import { describe, expect, it } from 'vitest';
import { toolNamesOf, toolResultsOf, type RecordedRequest } from '../../test/fixtures/model-server/index.js';
import { parseConfigSource } from '../config/config-file.js';
import { useAgentTestContext } from './test-context.js';
import { createHarness, providerConfig, testTool, type Harness } from './test-harness.js';

const ctx = useAgentTestContext();

const fetched: unknown[] = [];
const tools = () => [
  testTool('read_note'),
  testTool('fetch_page', { policy_class: 'network', group: 'net', metadata: { category: 'web' }, run: async (args) => (fetched.push(args), { text: 'page body' }) }),
  testTool('mcp_issues_list', { kind: 'mcp', policy_class: 'external_api', group: 'mcp', metadata: { category: 'mcp', mcp_server: 'issues' } }),
];
const completions = () => ctx.server.requests.filter((r: RecordedRequest) => r.vendor !== 'other');

async function start(roleConfig: string): Promise<Harness> {
  ctx.harness = await createHarness({
    config: providerConfig([{ name: 'main', type: 'openai', baseUrl: ctx.server.baseUrlOpenAI, primary: true, keyEnv: 'K' }], `${roleConfig}\n[fermix_core.tools.tool_search]\nenabled = false\n`),
    capabilities: tools,
    rules: [{ permission: '*', action: 'allow', source: 'config' }],
    secrets: { keyring: () => null, env: () => 'k' },
  });
  return ctx.harness;
}

describe('the main agent runs with its role', () => {
  it('the built-in operator role reaches every group', async () => {
    const h = await start('');
    ctx.server.setScript(() => ({ text: 'ok' }));
    const before = completions().length;
    await h.agent.send({ message: 'hi' }).done;
    expect(toolNamesOf(completions()[before]).sort()).toEqual(['fetch_page', 'mcp_issues_list', 'read_note']);
  });

  it('a role without net is not offered network tools, and cannot run one the model names anyway', async () => {
    const h = await start('[roles.offline]\ntools = ["fs", "mcp"]\n[agents.main]\nrole = "offline"\n');
    fetched.length = 0;
    ctx.server.setScript((req) => (toolResultsOf(req).length === 0 ? { toolCalls: [{ name: 'fetch_page', arguments: { text: 'https://example.com' } }] } : { text: `result: ${toolResultsOf(req)[0].content}` }));
    const before = completions().length;
    const result = await h.agent.send({ message: 'fetch example.com' }).done;
    // The mcp group is granted, but the MCP tool calls a remote API (is_network): without net it is not offered either.
    expect(toolNamesOf(completions()[before])).toEqual(['read_note']);
    expect(result.text).toMatch(/permission_denied/);
    expect(result.text).toMatch(/Role offline does not grant the net group/);
    expect(fetched).toEqual([]);
    expect(h.audit.at(-1)).toMatchObject({ capability: 'fetch_page', decision: 'deny', rule: 'role: offline' });
  });

  it('config refuses an unknown role and a redefined operator, naming the key', () => {
    expect(() => parseConfigSource('[agents.main]\nrole = "nobody"\n', 'config.toml')).toThrow(/agents\.main\.role.*no role named "nobody"|no role named "nobody"/);
    expect(() => parseConfigSource('[roles.operator]\ntools = ["fs"]\n', 'config.toml')).toThrow(/built-in role/);
  });
});
