/**
 * Every runtime value the agent takes from the AI SDK, in one module that is loaded on first use
 * (ai-runtime.ts): the SDK and its provider packages are ~1.3 MB of JavaScript that a daemon
 * without a turn to run need not parse at start-up. Type-only imports elsewhere are free.
 */
export { APICallError, defaultSettingsMiddleware, generateText, jsonSchema, streamText, tool, wrapLanguageModel } from 'ai';
// The loop's single step uses the SDK's own prompt and tool conversion (loop/model-stream.ts).
export { asLanguageModelUsage, convertToLanguageModelPrompt, prepareToolsAndToolChoice } from 'ai/internal';
export { createLanguageModel } from './providers/language-model.js';
