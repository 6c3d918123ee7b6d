/**
 * One provider config → one AI SDK LanguageModel. OpenAI goes through `.chat(model)` (chat
 * completions) because that is the protocol every compatible server speaks too; the default export
 * of @ai-sdk/openai would use the Responses API.
 */
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModel } from 'ai';
import type { ResolvedProvider } from './provider-config.js';

export function createLanguageModel(provider: ResolvedProvider, apiKey: string | undefined, fetchImpl?: typeof fetch): LanguageModel {
  switch (provider.type) {
    case 'openai':
      return createOpenAI({ apiKey, baseURL: provider.baseUrl, fetch: fetchImpl }).chat(provider.model);
    case 'anthropic':
      return createAnthropic({ apiKey, baseURL: provider.baseUrl, fetch: fetchImpl })(provider.model);
    case 'openai-compatible':
      return createOpenAICompatible({
        name: provider.name,
        baseURL: provider.baseUrl ?? 'http://127.0.0.1:11434/v1',
        apiKey,
        // Without it the server sends no usage chunk and turns report no tokens.
        includeUsage: true,
        fetch: fetchImpl,
      }).chatModel(provider.model);
  }
}
