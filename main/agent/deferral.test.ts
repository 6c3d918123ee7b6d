// Tool-schema deferral end to end: what reaches the provider, tool_search / tool_describe / tool_call
// through the real bridges, and the runtime prompt that lists the deferred names.
import { describe, expect, it } from 'vitest';
import { useAgentTestContext } from './test-context.js';
import { lastMessageIsToolResult, toolNamesOf, toolResultsOf, type RecordedRequest } from '../../test/fixtures/model-server/index.js';
import { DEFERRAL_BRIDGES } from '../tools/index.js';
import type { Capability } from '../core/capabilities/index.js';
import { parseConfigSource } from '../config/config-file.js';
import { createHarness, providerConfig, testTool, waitUntil, type Harness } from './test-harness.js';

const ctx = useAgentTestContext();

const created: Record<string, unknown>[] = [];
const githubCreateIssue = (): Capability => testTool('github_create_issue', {
  description: 'Create a new issue in a GitHub repository with a title and body.',
  parameters: { type: 'object', properties: { repository_full_name: { type: 'string' }, issue_title_text: { type: 'string' }, body: { type: 'string' } }, required: ['repository_full_name', 'issue_title_text'] },
  policy_class: 'external_api',
  group: 'plugin',
  metadata: { category: 'plugin', plugin: 'github', plugin_owned: true },
  run: async (args) => {
    created.push(args);
    return { text: `Created issue #42 in ${String(args.repository_full_name)}` };
  },
});
const linearSearch = (): Capability => testTool('linear_search_issues', {
  description: 'Search Linear issues by text, team or state.',
  parameters: { type: 'object', properties: { linear_query_string: { type: 'string' } } },
  kind: 'mcp',
  policy_class: 'external_api',
  group: 'mcp',
  metadata: { category: 'mcp', mcp_server: 'linear' },
});

function capabilities(): Capability[] {
  return [testTool('read_note'), githubCreateIssue(), linearSearch(), ...DEFERRAL_BRIDGES];
}

async function start(deferral: boolean, extra = ''): Promise<Harness> {
  ctx.harness = await createHarness({
    config: providerConfig([{ name: 'main', type: 'openai', baseUrl: ctx.server.baseUrlOpenAI, primary: true, keyEnv: 'K' }], `${extra}\n[fermix_core.tools.tool_search]\nenabled = ${deferral}\n`),
    capabilities,
    // The person allowed this one plugin tool ahead of time, so the test needs no approval card.
    rules: [{ permission: 'github_create_issue', action: 'allow', source: 'config' }],
    secrets: { keyring: () => null, env: () => 'k' },
  });
  return ctx.harness;
}

const completions = () => ctx.server.requests.filter((r) => r.vendor !== 'other');
const systemOf = (req: RecordedRequest): string => req.body.messages.find((m: any) => m.role === 'system')?.content ?? '';
const toolsBody = (req: RecordedRequest): string => JSON.stringify(req.body.tools ?? []);

describe('with deferral on (the default)', () => {
  it('sends no deferred schema, tool_search finds the tool, tool_call runs it under its real name in the audit', async () => {
    const h = await start(true);
    created.length = 0;
    ctx.server.setScript((req, ctx) => {
      const step = toolResultsOf(req).length;
      if (step === 0) return { toolCalls: [{ name: 'tool_search', arguments: { query: 'open a new github issue' } }] };
      if (step === 1) return { toolCalls: [{ name: 'tool_describe', arguments: { name: JSON.parse(toolResultsOf(req)[0].content).matches[0].name } }] };
      if (step === 2) return { toolCalls: [{ name: 'tool_call', arguments: { name: 'github_create_issue', arguments: { repository_full_name: 'ana/site', issue_title_text: 'Broken link' } } }] };
      return { text: `Done: ${toolResultsOf(req)[2].content} (request ${ctx.index})` };
    });
    const before = completions().length;
    const result = await h.agent.send({ message: 'File a bug about the broken link in ana/site' }).done;
    expect(result.status).toBe('completed');
    expect(result.text).toMatch(/^Done: Created issue #42 in ana\/site/);
    const requests = completions().slice(before);

    // 1. The first request body holds no deferred schema: neither tool is offered, none of their parameter names appear.
    const first = requests[0];
    expect(toolNamesOf(first).sort()).toEqual(['read_note', 'tool_call', 'tool_describe', 'tool_search']);
    expect(toolsBody(first)).not.toContain('repository_full_name');
    expect(toolsBody(first)).not.toContain('linear_query_string');
    // …but the names stay listed in the runtime prompt.
    expect(systemOf(first)).toContain('## Plugins');
    expect(systemOf(first)).toContain('- github: github_create_issue');
    expect(systemOf(first)).toContain('- mcp:linear: linear_search_issues');
    expect(systemOf(first)).toContain('## Deferred tools\nThe 2 plugin and MCP tools listed under ## Plugins are available');

    // 2. tool_search found it, in the reference's result shape.
    const search = JSON.parse(toolResultsOf(requests[1])[0].content);
    expect(search).toMatchObject({ query: 'open a new github issue', total_available: 2 });
    expect(search.matches[0]).toEqual({ name: 'github_create_issue', plugin: 'github', description: 'Create a new issue in a GitHub repository with a title and body.' });
    // 3. tool_describe returned the full schema on demand.
    expect(toolResultsOf(requests[2])[1].content).toContain('repository_full_name');

    // 4. tool_call ran the real tool; audit, events and the tool-call record name the real tool.
    expect(created).toEqual([{ repository_full_name: 'ana/site', issue_title_text: 'Broken link' }]);
    const audited = h.audit.map((r) => r.capability);
    expect(audited).toEqual(['tool_search', 'tool_describe', 'github_create_issue']);
    expect(audited).not.toContain('tool_call');
    expect(h.audit[2]).toMatchObject({ policy_class: 'external_api', decision: 'allow', rule: 'config: github_create_issue → allow' });
    expect(h.agent.store.toolCalls(result.turn_id).map((c) => [c.requested_name, c.name])).toEqual([
      ['tool_search', 'tool_search'],
      ['tool_describe', 'tool_describe'],
      ['tool_call', 'github_create_issue'],
    ]);
    expect(h.eventsOf('chat.tool_call').at(-1)).toMatchObject({ name: 'github_create_issue', requested_name: 'tool_call' });
  });

  it('a direct call of a deferred tool by name works too', async () => {
    const h = await start(true);
    created.length = 0;
    ctx.server.setScript((req) => (lastMessageIsToolResult(req)
      ? { text: toolResultsOf(req)[0].content }
      : { toolCalls: [{ name: 'github_create_issue', arguments: { repository_full_name: 'ana/blog', issue_title_text: 'Typo' } }] }));
    const result = await h.agent.send({ message: 'file it' }).done;
    expect(result.text).toBe('Created issue #42 in ana/blog');
    expect(h.audit.map((r) => r.capability)).toEqual(['github_create_issue']);
  });

  it('tool_call still enforces the real tool policy: without the allow rule it parks for approval', async () => {
    ctx.harness = await createHarness({
      config: providerConfig([{ name: 'main', type: 'openai', baseUrl: ctx.server.baseUrlOpenAI, primary: true, keyEnv: 'K' }]),
      capabilities,
      secrets: { keyring: () => null, env: () => 'k' },
    });
    ctx.server.setScript((req) => (lastMessageIsToolResult(req)
      ? { text: toolResultsOf(req)[0].content }
      : { toolCalls: [{ name: 'tool_call', arguments: { name: 'github_create_issue', arguments: { repository_full_name: 'a/b', issue_title_text: 't' } } }] }));
    const sent = ctx.harness.agent.send({ message: 'file it' });
    await waitUntil(() => ctx.harness!.approvals.list().length === 1);
    const card = ctx.harness.approvals.list()[0];
    expect(card).toMatchObject({ capability: 'github_create_issue', policy_class: 'external_api', conversation_id: sent.conversation_id });
    expect(ctx.harness.eventsOf('chat.parked')).toMatchObject([{ capability: 'github_create_issue', approval_id: card.id }]);
    ctx.harness.approvals.answer(card.id, 'deny');
    const result = await sent.done;
    expect(result.text).toContain('Error [permission_denied]: github_create_issue was not allowed: the person declined the approval request.');
  });

  it('rebuilds the cached prompt when the registry changes, and keeps it byte-identical otherwise', async () => {
    const h = await start(true);
    ctx.server.setScript(() => ({ text: 'ok' }));
    const before = completions().length;
    const first = await h.agent.send({ message: 'one' }).done;
    await h.agent.send({ message: 'two', conversation_id: first.conversation_id }).done;
    h.registry.register(testTool('notion_search', { description: 'Search Notion pages.', group: 'plugin', metadata: { category: 'plugin', plugin: 'notion' } }));
    await h.agent.send({ message: 'three', conversation_id: first.conversation_id }).done;
    const [a, b, c] = completions().slice(before).map(systemOf);
    expect(b).toBe(a);
    expect(a).not.toContain('notion_search');
    expect(c).toContain('- notion: notion_search');
  });
});

describe('with deferral off', () => {
  it('inlines every schema and offers no bridge', async () => {
    const h = await start(false);
    ctx.server.setScript(() => ({ text: 'ok' }));
    const before = completions().length;
    await h.agent.send({ message: 'hi' }).done;
    const request = completions()[before];
    expect(toolNamesOf(request).sort()).toEqual(['github_create_issue', 'linear_search_issues', 'read_note']);
    expect(toolsBody(request)).toContain('repository_full_name');
    expect(systemOf(request)).not.toContain('## Deferred tools');
    expect(systemOf(request)).toContain('- github: github_create_issue');
  });
});

describe('the deferral switch', () => {
  it('is on when absent, and a non-boolean value is a config error naming the key', () => {
    expect(parseConfigSource('', 'config.toml').config.fermix_core.tools.tool_search.enabled).toBe(true);
    expect(() => parseConfigSource('[fermix_core.tools.tool_search]\nenabled = "no"\n', 'config.toml')).toThrow(/config.toml:2: .*"fermix_core.tools.tool_search.enabled"/);
  });
});

describe('the ## Plugins section', () => {
  it('lists not-ready plugins with status= and the fix', async () => {
    ctx.harness = await createHarness({
      config: providerConfig([{ name: 'main', type: 'openai', baseUrl: ctx.server.baseUrlOpenAI, primary: true, keyEnv: 'K' }]),
      capabilities,
      secrets: { keyring: () => null, env: () => 'k' },
      overrides: { pluginStatus: () => [{ name: 'github', status: 'ready' }, { name: 'gmail', status: 'needs_auth' }], skillCatalog: () => [{ name: 'weekly-report', description: 'Write the weekly report.\nLong text.' }] },
    });
    ctx.server.setScript(() => ({ text: 'ok' }));
    const before = completions().length;
    await ctx.harness.agent.send({ message: 'hi' }).done;
    const system = systemOf(completions()[before]);
    expect(system).toContain('- gmail status=needs_auth — not connected; fix: `fermix plugins auth login gmail` (or connect it on the setup Plugins page)');
    expect(system).toContain('## Skills\n- weekly-report: Write the weekly report.');
    expect(system).toMatch(/Today is \w+day, \d{4}-\d{2}-\d{2}/);
  });
});
