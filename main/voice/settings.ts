/**
 * `[fermix_core.transcription]` as the voice feature reads it: base_url (an OpenAI-compatible API root,
 * usually ending in /v1), model, api_key_ref (`@keyring:NAME`, a keychain entry) and max_file_mb (20).
 * Read on every call, so a change in Settings or config.toml applies to the next recording.
 */
import type { FermixConfig } from '../config/schema.js';
import { FermixError } from '../core/errors.js';
import { SECRET_NAME } from '../secrets/keychain.js';

/** Where a person sets transcription up in the window. */
export const VOICE_SETUP_UI = 'Settings → Voice';

export const CONFIG_EXAMPLE = 'base_url and model under [fermix_core.transcription] in config.toml (e.g. "https://api.openai.com/v1" and "whisper-1", or a local whisper.cpp server\'s http://127.0.0.1:8080/v1)';

export type TranscriptionConfig = FermixConfig['fermix_core']['transcription'];

export interface VoiceStatus {
  configured: boolean;
  base_url: string | null;
  model: string | null;
  max_file_mb: number;
  api_key_ref: string | null;
  /** Why voice is not usable yet, or null. */
  problem: string | null;
}

export interface ResolvedTranscription {
  endpoint: string;
  baseUrl: URL;
  model: string;
  maxFileMb: number;
  /** Keychain entry name, or undefined for a server without a key (a local whisper.cpp). */
  keyName: string | undefined;
}

export function notConfigured(problem: string): FermixError {
  return new FermixError({
    code: 'transcription_not_configured',
    message: `Voice input is not set up: ${problem}.`,
    hint: `Choose the endpoint and model in ${VOICE_SETUP_UI}, or set ${CONFIG_EXAMPLE}.`,
    data: { problem },
  });
}

/** `@keyring:NAME` (as Settings writes it) or a bare NAME; anything else is refused without echoing it (it may be the key itself). */
export function keyNameOf(ref: string | undefined): string | undefined | Error {
  if (ref === undefined || ref.trim() === '') return undefined;
  const name = ref.trim().startsWith('@keyring:') ? ref.trim().slice('@keyring:'.length) : ref.trim();
  return SECRET_NAME.test(name) ? name : new Error('api_key_ref must name a keychain entry, like @keyring:OPENAI_API_KEY (never the key itself)');
}

export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** The problem that keeps voice from working, or the resolved endpoint. */
export function resolveTranscription(config: TranscriptionConfig): ResolvedTranscription | { problem: string } {
  if (!config.base_url) return { problem: 'no transcription server URL is set' };
  if (!config.model) return { problem: 'no model is configured' };
  let baseUrl: URL;
  try {
    baseUrl = new URL(config.base_url);
  } catch {
    return { problem: `base_url "${config.base_url}" is not a URL` };
  }
  if (baseUrl.protocol !== 'http:' && baseUrl.protocol !== 'https:') return { problem: `base_url must start with http:// or https:// (it is ${baseUrl.protocol}//…)` };
  if (baseUrl.username || baseUrl.password) return { problem: 'base_url must not carry a user name or password; put the key in the keychain (api_key_ref)' };
  const keyName = keyNameOf(config.api_key_ref);
  if (keyName instanceof Error) return { problem: keyName.message };
  if (keyName && baseUrl.protocol === 'http:' && !isLoopbackHost(baseUrl.hostname)) {
    return { problem: `the API key would travel unencrypted to ${baseUrl.host}; use an https:// base_url (plain http is allowed only on this machine)` };
  }
  const root = baseUrl.href.replace(/\/+$/, '');
  return { endpoint: `${root}/audio/transcriptions`, baseUrl, model: config.model, maxFileMb: config.max_file_mb, keyName };
}

export function voiceStatus(config: TranscriptionConfig): VoiceStatus {
  const resolved = resolveTranscription(config);
  return {
    configured: !('problem' in resolved),
    base_url: config.base_url ?? null,
    model: config.model ?? null,
    max_file_mb: config.max_file_mb,
    api_key_ref: config.api_key_ref ?? null,
    problem: 'problem' in resolved ? resolved.problem : null,
  };
}
