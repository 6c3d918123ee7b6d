// One model step straight from a provider's LanguageModelV3 stream (model-stream.ts): what the loop got
// from streamText before must still come out. The model here is a provider-level object written for the
// test (the SDK's provider interface, not one of our modules); the loop tests cover the real providers.
import { beforeAll, describe, expect, it } from 'vitest';
import type { LanguageModel, ToolSet } from 'ai';
import { aiSdk, loadAiSdk } from '../ai-runtime.js';
import { streamModelStep, type StepPart } from './model-stream.js';

type ModelV3 = Extract<LanguageModel, { specificationVersion: 'v3' }>;
type CallOptions = Parameters<ModelV3['doStream']>[0];

/** A provider model that streams the given parts and records every call's options. */
function scriptedModel(parts: unknown[], onCancel: () => void = () => {}) {
  const calls: CallOptions[] = [];
  const model = {
    specificationVersion: 'v3',
    provider: 'test',
    modelId: 'scripted',
    supportedUrls: {},
    doGenerate: () => Promise.reject(new Error('not used')),
    doStream: async (options: CallOptions) => {
      calls.push(options);
      let index = 0;
      const stream = new ReadableStream({
        pull(controller) {
          if (index < parts.length) controller.enqueue(parts[index++]);
          else controller.close();
        },
        cancel: onCancel,
      });
      return { stream };
    },
  } as unknown as ModelV3;
  return { model, calls };
}

const usage = { inputTokens: { total: 12, noCache: 12, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 5, text: 5, reasoning: undefined } };

async function collect(model: LanguageModel, tools: ToolSet = {}): Promise<StepPart[]> {
  const out: StepPart[] = [];
  for await (const part of streamModelStep({ model, system: 'Be brief.', messages: [{ role: 'user', content: 'hi' }], tools, signal: new AbortController().signal })) out.push(part);
  return out;
}

describe('one model step from the provider stream', () => {
  beforeAll(() => loadAiSdk());

  it('passes text, tool calls and the finish on, with tool inputs parsed as streamText did', async () => {
    const { model, calls } = scriptedModel([
      { type: 'stream-start', warnings: [] },
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'Hel' },
      { type: 'text-delta', id: 't', delta: 'lo' },
      { type: 'text-end', id: 't' },
      { type: 'tool-call', toolCallId: 'c1', toolName: 'read', input: '{"path":"/tmp/a"}' },
      { type: 'tool-call', toolCallId: 'c2', toolName: 'list', input: '' },
      { type: 'tool-call', toolCallId: 'c3', toolName: 'read', input: '{"path":' },
      { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage },
    ]);
    expect(await collect(model)).toEqual([
      { type: 'text', text: 'Hel' },
      { type: 'text', text: 'lo' },
      { type: 'tool-call', id: 'c1', name: 'read', input: { path: '/tmp/a' } },
      { type: 'tool-call', id: 'c2', name: 'list', input: {} },
      // Unparsable input stays the raw text: the invoke boundary refuses it with a message the model can read.
      { type: 'tool-call', id: 'c3', name: 'read', input: '{"path":' },
      { type: 'finish', finishReason: 'tool-calls', inputTokens: 12, outputTokens: 5 },
    ]);
    expect(calls[0].prompt).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: [{ type: 'text', text: 'hi' }] },
    ]);
  });

  it('sends the tools as JSON-schema function tools, converted once per tool set', async () => {
    const { jsonSchema, tool } = aiSdk();
    const tools: ToolSet = { read: tool({ description: 'Reads a file.', inputSchema: jsonSchema({ type: 'object', properties: { path: { type: 'string' } } }) }) };
    const { model, calls } = scriptedModel([]);
    await collect(model, tools);
    await collect(model, tools);
    expect(calls[0].tools).toEqual([expect.objectContaining({ type: 'function', name: 'read', description: 'Reads a file.', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } })]);
    expect(calls[0].toolChoice).toEqual({ type: 'auto' });
    expect(calls[1].tools).toBe(calls[0].tools);
    const { model: bare, calls: bareCalls } = scriptedModel([]);
    await collect(bare);
    expect(bareCalls[0].tools).toBeUndefined();
  });

  it('passes error parts on and cancels the provider stream when the consumer stops early', async () => {
    let cancelled = false;
    const failure = new Error('overloaded');
    const { model } = scriptedModel([{ type: 'error', error: failure }, { type: 'text-delta', id: 't', delta: 'never read' }], () => (cancelled = true));
    for await (const part of streamModelStep({ model, system: '', messages: [{ role: 'user', content: 'hi' }], tools: {}, signal: new AbortController().signal })) {
      expect(part).toEqual({ type: 'error', error: failure });
      break;
    }
    expect(cancelled).toBe(true);
  });

  it('refuses a model id string: the loop only gets models built by createLanguageModel', async () => {
    await expect(collect('openai/gpt-4o')).rejects.toThrow(/v3 language model/);
  });
});
