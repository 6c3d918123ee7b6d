/**
 * A provider's default name (the [providers.NAME] key) when the person gives none: the vendor for hosted
 * APIs, the server's well-known product or its host for an OpenAI-compatible URL. Shared by the window's
 * form and the daemon (probe errors name the provider), so a placeholder never shows up in a message.
 * Names match config's /^[a-z0-9_-]+$/i.
 */
const KNOWN_HOSTS: [RegExp, string][] = [
  [/(^|\.)openrouter\.ai$/, 'openrouter'],
  [/(^|\.)groq\.com$/, 'groq'],
  [/(^|\.)together\.(ai|xyz)$/, 'together'],
  [/(^|\.)mistral\.ai$/, 'mistral'],
  [/(^|\.)deepseek\.com$/, 'deepseek'],
  [/(^|\.)fireworks\.ai$/, 'fireworks'],
  [/(^|\.)x\.ai$/, 'xai'],
  [/(^|\.)openai\.com$/, 'openai'],
  [/(^|\.)anthropic\.com$/, 'anthropic'],
  [/(^|\.)googleapis\.com$/, 'gemini'],
];
/** Local servers are told apart by their default port. */
const KNOWN_PORTS: Record<string, string> = { '11434': 'ollama', '1234': 'lmstudio', '8080': 'llamacpp', '8000': 'vllm' };
const LOCAL = /^(localhost|127(\.\d+){3}|\[::1\]|::1|0\.0\.0\.0)$/;

export function defaultProviderName(type: 'openai' | 'anthropic' | 'openai-compatible', baseUrl?: string): string {
  if (type !== 'openai-compatible' && !baseUrl) return type;
  // No URL class in common code (no DOM, no node:): scheme://host[:port] is all that is needed.
  const parts = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/]*@)?(\[[^\]]+\]|[^/:?#]+)(?::(\d+))?/i.exec(baseUrl ?? 'http://127.0.0.1:11434/v1');
  if (!parts) return type === 'openai-compatible' ? 'local' : type;
  const host = parts[1].toLowerCase();
  const url = { port: parts[2] ?? '' };
  const known = KNOWN_HOSTS.find(([pattern]) => pattern.test(host));
  if (known) return known[1];
  if (LOCAL.test(host)) return KNOWN_PORTS[url.port] ?? 'local';
  // The host's distinctive label: "llm.example.com" → "example", "gpu-box" → "gpu-box".
  const labels = host.split('.').filter((label: string) => label !== 'www' && label !== 'api');
  const label = labels.length >= 2 ? labels[labels.length - 2] : (labels[0] ?? '');
  const name = label.replace(/[^a-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40);
  return name || (type === 'openai-compatible' ? 'local' : type);
}
