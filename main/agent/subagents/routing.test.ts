// [fermix_core.routing] subagent_provider / subagent_model / subagent_effort through a real parent turn that
// calls `subagents` against the scripted model server: workers ask the routed provider for the routed
// model with the effort, the parent stays on the primary; a mis-paired route is refused at config load.
import { describe, expect, it } from 'vitest';
import { messagesOf, toolResultsOf, type RecordedRequest } from '../../../test/fixtures/model-server/index.js';
import { configSchema } from '../../config/schema.js';
import { subagents } from '../../tools/subagents.js';
import { useAgentTestContext } from '../test-context.js';
import { createHarness, providerConfig, testTool } from '../test-harness.js';

const ctx = useAgentTestContext();
const isWorker = (req: RecordedRequest) => String(messagesOf(req)[0]?.content ?? '').includes('## You are a subagent');

describe('subagent routing', () => {
  it('workers use subagent_provider with subagent_model and subagent_effort; the parent keeps the primary', async () => {
    const routing = '[fermix_core.routing]\nsubagent_provider = "fast"\nsubagent_model = "worker-model"\nsubagent_effort = "low"\n\n[fermix_core.tools.tool_search]\nenabled = false\n';
    ctx.harness = await createHarness({
      config: providerConfig([
        { name: 'main', type: 'openai', baseUrl: ctx.server.baseUrlOpenAI, primary: true, keyEnv: 'K' },
        { name: 'fast', type: 'openai', baseUrl: ctx.server.baseUrlOpenAI, model: 'fast-configured', keyEnv: 'K' },
      ], routing),
      capabilities: () => [subagents, testTool('read_note', { run: async () => ({ text: 'note' }) })],
      rules: [{ permission: '*', action: 'allow', source: 'config' }],
      secrets: { keyring: () => null, env: () => 'k' },
    });
    ctx.server.setScript((req) => {
      if (isWorker(req)) return { text: `worker on ${req.body.model}` };
      return toolResultsOf(req).length === 0 ? { toolCalls: [{ name: 'subagents', arguments: { tasks: [{ id: 'a', task: 'look' }, { id: 'b', task: 'look again' }] } }] } : { text: 'done' };
    });
    const before = ctx.server.requests.length;
    const result = await ctx.harness.agent.send({ message: 'delegate' }).done;
    expect(result.status).toBe('completed');
    const requests = ctx.server.requests.slice(before).filter((req) => req.vendor === 'openai');
    const workers = requests.filter(isWorker);
    expect(workers.map((req) => [req.body.model, req.body.reasoning_effort])).toEqual([['worker-model', 'low'], ['worker-model', 'low']]);
    const parent = requests.filter((req) => !isWorker(req));
    expect(parent.map((req) => [req.body.model, req.body.reasoning_effort])).toEqual([['fermix-test-model', undefined], ['fermix-test-model', undefined]]);
  });

  it('refuses at config load a provider that is not configured, a model without its provider, and effort on Anthropic', () => {
    const providers = { main: { type: 'openai', model: 'm', primary: true }, claude: { type: 'anthropic', model: 'c' } };
    const problems = (routing: Record<string, string>) => {
      const parsed = configSchema.safeParse({ providers, fermix_core: { routing } });
      return parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    };
    expect(problems({ subagent_provider: 'claude', subagent_model: 'claude-sonnet-4-5' })).toEqual([]);
    expect(problems({ subagent_provider: 'anthropic' })).toEqual([]); // by type, when one provider has it
    expect(problems({ subagent_provider: 'nope' })).toEqual(['fermix_core.routing.subagent_provider: no configured provider is named "nope" (configured: main, claude); name one of [providers.<name>]']);
    expect(problems({ subagent_model: 'gpt-5-mini' })).toEqual(['fermix_core.routing.subagent_model: subagent_model needs subagent_provider: set the provider that serves this model too']);
    expect(problems({ subagent_provider: 'claude', subagent_effort: 'high' })[0]).toMatch(/^fermix_core\.routing\.subagent_effort: subagent_effort applies to OpenAI-protocol providers, and subagents run on claude/);
  });
});
