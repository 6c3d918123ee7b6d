/**
 * One model step streamed straight from the provider's LanguageModelV3 (`doStream`), with the AI SDK's
 * own prompt and tool conversion (`ai/internal`), instead of `streamText`. Why: the loop makes exactly one
 * step per call and runs tools itself, and for that streamText's machinery (about eight web-stream
 * TransformStreams per step, each delta passing through all of them, telemetry spans, and a zod
 * validation of the whole history on every call) allocated ~2.5 MB per call against ~1.3 MB for the
 * provider stream alone — garbage that got promoted and held the daemon's RSS up (docs/decisions/0027,
 * "300 turns"). What streamText did that a single step without tool execution needs is kept here:
 * - the prompt: `convertToLanguageModelPrompt` (system message, images and files, tool results);
 * - the tools: `prepareToolsAndToolChoice` (tool choice `auto`), converted once per tool set;
 * - tool calls: the input is parsed as JSON, an empty input is `{}`, an unparsable one stays the raw
 *   text (streamText marked those invalid and passed them on the same way; the invoke boundary validates);
 * - usage through `asLanguageModelUsage`, the finish reason's unified value.
 * Errors thrown by the provider (an HTTP status: APICallError) reach the caller unchanged, as they did
 * with streamText and `maxRetries: 0`.
 */
import type { LanguageModel, ModelMessage, ToolSet } from 'ai';
import { aiSdk } from '../ai-runtime.js';

type ModelV3 = Extract<LanguageModel, { specificationVersion: 'v3' }>;
type CallOptions = Parameters<ModelV3['doStream']>[0];
type StreamPart = Awaited<ReturnType<ModelV3['doStream']>>['stream'] extends ReadableStream<infer Part> ? Part : never;

export type StepPart =
  | { type: 'text'; text: string }
  | { type: 'tool-call'; id: string; name: string; input: unknown }
  | { type: 'finish'; finishReason: string; inputTokens?: number; outputTokens?: number }
  | { type: 'error'; error: unknown };

export interface StepInput {
  model: LanguageModel;
  system: string;
  messages: ModelMessage[];
  tools: ToolSet;
  signal: AbortSignal;
}

/** The request's provider-level tools, per tool set: the request builder keeps one ToolSet per registry version. */
const preparedTools = new WeakMap<ToolSet, Promise<Pick<CallOptions, 'tools' | 'toolChoice'>>>();

function prepareTools(tools: ToolSet): Promise<Pick<CallOptions, 'tools' | 'toolChoice'>> {
  let prepared = preparedTools.get(tools);
  if (!prepared) {
    prepared = aiSdk().prepareToolsAndToolChoice({ tools, toolChoice: undefined, activeTools: undefined });
    // A failed conversion is not kept: the next call tries again (and fails the same way, visibly).
    prepared.catch(() => preparedTools.delete(tools));
    preparedTools.set(tools, prepared);
  }
  return prepared;
}

function asModelV3(model: LanguageModel): ModelV3 {
  if (typeof model === 'string' || model.specificationVersion !== 'v3') {
    // createLanguageModel and wrapLanguageModel only make v3 models; anything else is a programming error.
    throw new Error(`The agent loop needs an AI SDK v3 language model (got ${typeof model === 'string' ? `the id "${model}"` : model.specificationVersion}).`);
  }
  return model;
}

function toolInput(text: string): unknown {
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function toStepPart(part: StreamPart): StepPart | undefined {
  switch (part.type) {
    case 'text-delta':
      return { type: 'text', text: part.delta };
    case 'tool-call':
      return { type: 'tool-call', id: part.toolCallId, name: part.toolName, input: toolInput(part.input) };
    case 'finish': {
      const usage = aiSdk().asLanguageModelUsage(part.usage);
      return { type: 'finish', finishReason: part.finishReason.unified, inputTokens: usage.inputTokens, outputTokens: usage.outputTokens };
    }
    case 'error':
      return { type: 'error', error: part.error };
    default:
      return undefined;
  }
}

/** Streams one step's parts; a provider error before the stream starts is thrown, as streamText's was. */
export async function* streamModelStep(input: StepInput): AsyncGenerator<StepPart> {
  const model = asModelV3(input.model);
  const sdk = aiSdk();
  const prompt = await sdk.convertToLanguageModelPrompt({
    prompt: { system: input.system, messages: input.messages },
    supportedUrls: await model.supportedUrls,
    download: undefined,
    abortSignal: input.signal,
  });
  const { stream } = await model.doStream({ prompt, ...(await prepareTools(input.tools)), abortSignal: input.signal });
  const reader = stream.getReader();
  let done = false;
  try {
    for (;;) {
      const next = await reader.read();
      if (next.done) {
        done = true;
        return;
      }
      const part = toStepPart(next.value);
      if (part) yield part;
    }
  } finally {
    // The consumer stopped early (or a read failed): let the provider's stream and its request go.
    if (!done) reader.cancel().catch(() => {});
  }
}
