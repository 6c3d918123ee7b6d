import { describe, expect, it } from 'vitest';
import { defaultProviderName } from './provider-name.js';

describe('defaultProviderName', () => {
  it('names a provider by its vendor, a local server by its product, a remote one by its host', () => {
    expect(defaultProviderName('openai')).toBe('openai');
    expect(defaultProviderName('anthropic')).toBe('anthropic');
    expect(defaultProviderName('openai-compatible')).toBe('ollama');
    expect(defaultProviderName('openai-compatible', 'http://127.0.0.1:11434/v1')).toBe('ollama');
    expect(defaultProviderName('openai-compatible', 'http://localhost:1234/v1')).toBe('lmstudio');
    expect(defaultProviderName('openai-compatible', 'http://127.0.0.1:45871/v1')).toBe('local');
    expect(defaultProviderName('openai-compatible', 'https://openrouter.ai/api/v1')).toBe('openrouter');
    expect(defaultProviderName('openai-compatible', 'https://api.groq.com/openai/v1')).toBe('groq');
    expect(defaultProviderName('openai-compatible', 'https://llm.example.com/v1')).toBe('example');
    expect(defaultProviderName('openai-compatible', 'http://gpu-box:8000/v1')).toBe('gpu-box');
    expect(defaultProviderName('openai', 'https://my.azure-proxy.net/v1')).toBe('azure-proxy');
    expect(defaultProviderName('openai-compatible', 'not a url')).toBe('local');
    for (const name of ['ollama', 'local', 'gpu-box', 'azure-proxy']) expect(name).toMatch(/^[a-z0-9_-]+$/i);
  });
});
