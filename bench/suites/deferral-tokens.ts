/**
 * Tokens of tool definitions in the first request (issue 4 item 8 a): 200 MCP/plugin tools from the
 * real-world corpus registered next to every built-in, one turn with deferral on and one with it off,
 * through the real loop and the real OpenAI client against the scripted model server; the request
 * bodies the server received are measured. Tokens are estimated as UTF-8 bytes / 4 (no tokenizer is
 * installable here); the ratio between the two runs is what the goal is about.
 */
import { metric, type Metric } from '../metric.js';
import { startModelServer, type RecordedRequest } from '../../test/fixtures/model-server/index.js';
import { createHarness, providerConfig } from '../../main/agent/test-harness.js';
import { ALWAYS_ON_BUILTINS, DEFERRAL_BRIDGES } from '../../main/tools/index.js';
import { loadCorpus, toCapability } from './tool-corpus.js';

const tokens = (text: string) => Math.round(Buffer.byteLength(text, 'utf8') / 4);

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

  const offTools = tokens(JSON.stringify(toolsOf(off)));
  const onTools = tokens(JSON.stringify(toolsOf(on)));
  // The 200 tools' own share: their inline definitions (off) vs. their names in the prompt plus the bridges (on).
  const offDeferredShare = tokens(JSON.stringify(toolsOf(off).filter((t) => deferredNames.has(t.function.name))));
  const bridges = tokens(JSON.stringify(toolsOf(on).filter((t) => ['tool_search', 'tool_describe', 'tool_call'].includes(t.function.name))));
  // Conservative: the names are in the ## Plugins section in both modes, but they are counted here as
  // a cost of deferral anyway, plus the extra prompt text deferral adds and the three bridges' schemas.
  const names = tokens([...deferredNames].join(', '));
  const extraPrompt = tokens(systemOf(on)) - tokens(systemOf(off));
  const namesInPrompt = names + extraPrompt;
  const onDeferredShare = bridges + namesInPrompt;
  const offTotal = offTools + tokens(systemOf(off));
  const onTotal = onTools + tokens(systemOf(on));
  return [
    metric('tool_defs_tokens_deferral_off', offTools, 'tokens', undefined, 'lower', `${toolsOf(off).length} tool schemas inline (35 built-ins + 200 MCP/plugin)`),
    metric('tool_defs_tokens_deferral_on', onTools, 'tokens', undefined, 'lower', `${toolsOf(on).length} tool schemas (built-ins + 3 bridges)`),
    metric('mcp_plugin_tool_tokens_reduction', 1 - onDeferredShare / offDeferredShare, 'ratio', 0.9, 'higher', `200 tools: ${offDeferredShare} tokens inline → ${onDeferredShare} (names ${names} + deferral note ${extraPrompt} + bridge schemas ${bridges})`),
    metric('tool_tokens_reduction_whole_request', 1 - onTotal / offTotal, 'ratio', undefined, 'higher', `tools + system prompt: ${offTotal} → ${onTotal} tokens, built-in schemas included (never deferred)`),
  ];
}
