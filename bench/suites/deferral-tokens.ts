/**
 * Tokens of tool definitions in the first request (issue 4 item 8 a): 200 MCP/plugin tools from the
 * real-world corpus registered next to every built-in, one turn with deferral on and one with it off,
 * through the real loop and the real OpenAI client against the scripted model server; the request
 * bodies the server received are measured. Tokens are counted with real tokenizers (gpt-tokenizer:
 * o200k, GPT-4o and later; cl100k, GPT-4 and -3.5) — the tool section and the system prompt separately,
 * the deferred tools' own share, the whole request, and the built-ins' share of every request (built-ins
 * and the bridges are never deferred, as in Fermix, so their descriptions are what keeps it small).
 */
import { metric, type Metric } from '../metric.js';
import { startModelServer, type RecordedRequest } from '../../test/fixtures/model-server/index.js';
import { createHarness, providerConfig } from '../../main/agent/test-harness.js';
import { ALWAYS_ON_BUILTINS, DEFERRAL_BRIDGES } from '../../main/tools/index.js';
import { loadCorpus, toCapability } from './tool-corpus.js';

import { countTokens as o200k } from 'gpt-tokenizer/encoding/o200k_base';
import { countTokens as cl100k } from 'gpt-tokenizer/encoding/cl100k_base';

type Counter = (text: string) => number;
const TOKENIZERS: [string, Counter][] = [['o200k', o200k], ['cl100k', cl100k]];

async function firstRequest(deferral: boolean): Promise<RecordedRequest> {
  const server = await startModelServer({ script: [{ text: 'ok' }] });
  const deferred = loadCorpus().slice(0, 200).map((tool, index) => toCapability(tool, index));
  const harness = await createHarness({
    config: providerConfig([{ name: 'main', type: 'openai', baseUrl: server.baseUrlOpenAI, primary: true, keyEnv: 'K' }], `[fermix_core.tools.tool_search]\nenabled = ${deferral}\n`),
    capabilities: () => [...ALWAYS_ON_BUILTINS, ...(deferral ? DEFERRAL_BRIDGES : []), ...deferred],
    secrets: { keyring: () => null, env: () => 'k' },
  });
  try {
    const result = await harness.agent.send({ message: 'hello' }).done;
    if (result.status !== 'completed') throw new Error(`bench turn failed: ${JSON.stringify(result.error)}`);
    return server.requests.find((r) => r.vendor === 'openai')!;
  } finally {
    await harness.close();
    await server.close();
  }
}

export async function run(): Promise<Metric[]> {
  const off = await firstRequest(false);
  const on = await firstRequest(true);
  const toolsOf = (req: RecordedRequest) => (req.body.tools ?? []) as { function: { name: string } }[];
  const systemOf = (req: RecordedRequest) => String(req.body.messages.find((m: { role: string }) => m.role === 'system')?.content ?? '');
  const deferredNames = new Set(loadCorpus().slice(0, 200).map((t) => t.name));
  const bridgeNames = ['tool_search', 'tool_describe', 'tool_call'];
  const metrics: Metric[] = [];
  for (const [label, tokens] of TOKENIZERS) {
    const count = (value: unknown) => tokens(typeof value === 'string' ? value : JSON.stringify(value));
    const offTools = count(toolsOf(off));
    const onTools = count(toolsOf(on));
    // The 200 tools' own share: their inline definitions (off) vs. their names in the prompt plus the bridges (on).
    const offDeferredShare = count(toolsOf(off).filter((t) => deferredNames.has(t.function.name)));
    const bridges = count(toolsOf(on).filter((t) => bridgeNames.includes(t.function.name)));
    const builtins = count(toolsOf(on).filter((t) => !bridgeNames.includes(t.function.name) && !deferredNames.has(t.function.name)));
    // Conservative: the names are in the ## Plugins section in both modes, but they are counted here as
    // a cost of deferral anyway, plus the extra prompt text deferral adds and the three bridges' schemas.
    const names = count([...deferredNames].join(', '));
    const extraPrompt = count(systemOf(on)) - count(systemOf(off));
    const onDeferredShare = bridges + names + extraPrompt;
    const offTotal = count(off.body);
    const onTotal = count(on.body);
    const suffix = label === 'o200k' ? '' : `_${label}`;
    metrics.push(
      metric(`tool_defs_tokens_deferral_off${suffix}`, offTools, 'tokens', undefined, 'lower', `${label}: ${toolsOf(off).length} tool schemas inline (built-ins + 200 MCP/plugin)`),
      metric(`tool_defs_tokens_deferral_on${suffix}`, onTools, 'tokens', undefined, 'lower', `${label}: ${toolsOf(on).length} tool schemas (built-ins + 3 bridges)`),
      metric(`mcp_plugin_tool_tokens_reduction${suffix}`, 1 - onDeferredShare / offDeferredShare, 'ratio', 0.9, 'higher', `${label}, 200 tools: ${offDeferredShare} tokens inline → ${onDeferredShare} (names ${names} + deferral note ${extraPrompt} + bridge schemas ${bridges})`),
      metric(`tool_section_tokens_reduction${suffix}`, 1 - onTools / offTools, 'ratio', undefined, 'higher', `${label}: tool section ${offTools} → ${onTools} tokens`),
      metric(`request_tokens_deferral_off${suffix}`, offTotal, 'tokens', undefined, 'lower', `${label}: whole first request body (tools, system prompt, message)`),
      metric(`request_tokens_deferral_on${suffix}`, onTotal, 'tokens', undefined, 'lower', `${label}: whole first request body; reduction ${((1 - onTotal / offTotal) * 100).toFixed(1)} %`),
      metric(`builtin_schemas_share_of_request${suffix}`, builtins / onTotal, 'ratio', undefined, 'lower', `${label}: ${toolsOf(on).length - 3} built-in schemas = ${builtins} of ${onTotal} tokens with deferral on (bridges ${bridges} more); never deferred`),
    );
  }
  return metrics;
}
