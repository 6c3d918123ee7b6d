/**
 * The transcription client: `POST {base_url}/audio/transcriptions` as multipart `file` + `model`
 * (+ `response_format=json`), the OpenAI-compatible API that OpenAI, Groq and whisper.cpp's server speak.
 * Bearer key from the keychain when api_key_ref names one; 120 s deadline (reference §6); the size cap
 * is max_file_mb. The endpoint is the operator's own choice, so it is called directly, loopback included
 * (docs/decisions/0007-voice.md): Net.Guard's SSRF floor is for URLs chosen by a model or a plugin.
 */
import type { Keychain } from '../secrets/keychain.js';
import { FermixError } from '../core/errors.js';
import { BYTES_PER_MB, tooLarge, uploadFileName } from './audio.js';
import { notConfigured, resolveTranscription, VOICE_SETUP_UI, voiceStatus, type TranscriptionConfig, type VoiceStatus } from './settings.js';

export const TRANSCRIPTION_TIMEOUT_MS = 120_000;
/** A transcript is text; an answer larger than this is not one. */
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

export interface TranscriptionDeps {
  /** The current `[fermix_core]` table (re-read per call) and its keychain profile. */
  config: () => { transcription: TranscriptionConfig; profile: string };
  /** The keychain of a profile (main/secrets/keychain.ts). */
  keychain: (profile: string) => Pick<Keychain, 'get'>;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

export interface TranscribeInput {
  audio: Uint8Array;
  mimeType: string;
  signal?: AbortSignal;
}

export interface Transcript {
  text: string;
  /** Time from sending the request to reading the answer. */
  elapsed_ms: number;
  bytes: number;
}

export interface TranscriptionClient {
  status(): VoiceStatus;
  /** The configured limit in bytes, or the default when voice is not configured. */
  maxBytes(): number;
  transcribe(input: TranscribeInput): Promise<Transcript>;
}

function failed(message: string, hint: string, data: Record<string, unknown>, cause?: unknown): FermixError {
  return new FermixError({ code: 'transcription_failed', message, hint, data, cause });
}

/** The endpoint's own words: OpenAI/Groq `{error:{message}}`, whisper.cpp `{error:"…"}`, or plain text. */
export function endpointMessage(body: string): string {
  let text = body.trim();
  try {
    const parsed = JSON.parse(body) as { error?: unknown; message?: unknown; detail?: unknown };
    const error = parsed.error;
    if (typeof error === 'string') text = error;
    else if (error && typeof error === 'object' && typeof (error as { message?: unknown }).message === 'string') text = (error as { message: string }).message;
    else if (typeof parsed.message === 'string') text = parsed.message;
    else if (typeof parsed.detail === 'string') text = parsed.detail;
  } catch {
    // not JSON: plain text or HTML
  }
  text = text.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim();
  return text.length > 300 ? `${text.slice(0, 297)}…` : text;
}

function hintForStatus(status: number, keyName: string | undefined): string {
  if (status === 401 || status === 403) {
    return keyName
      ? `Check the key stored as ${keyName}: \`fermix secrets set ${keyName}\`, or enter it again in ${VOICE_SETUP_UI}.`
      : `The endpoint wants an API key: add it in ${VOICE_SETUP_UI} (it is kept in the OS keychain).`;
  }
  if (status === 404) return `Check [fermix_core.transcription] base_url (an API root that usually ends in /v1) and model in ${VOICE_SETUP_UI}.`;
  if (status === 413) return 'The endpoint takes less than max_file_mb allows: record a shorter message, or lower [fermix_core.transcription] max_file_mb to its limit.';
  if (status === 429) return 'The endpoint is rate-limiting this key; wait a moment and record again.';
  if (status >= 500) return 'The transcription server had a problem; try again, or look at its log.';
  return `Check the endpoint and model in ${VOICE_SETUP_UI}.`;
}

function networkReason(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  return cause?.code ?? cause?.message ?? (error as Error)?.message ?? String(error);
}

async function readCapped(response: Response): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? '0');
  if (declared > MAX_ANSWER_BYTES) throw new Error(`answer of ${declared} bytes`);
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (bytes.length > MAX_ANSWER_BYTES) throw new Error(`answer of ${bytes.length} bytes`);
  return new TextDecoder().decode(bytes);
}

export function createTranscriptionClient(deps: TranscriptionDeps): TranscriptionClient {
  const fetchImpl = deps.fetch ?? fetch;
  const timeoutMs = deps.timeoutMs ?? TRANSCRIPTION_TIMEOUT_MS;

  return {
    status: () => voiceStatus(deps.config().transcription),
    maxBytes: () => deps.config().transcription.max_file_mb * BYTES_PER_MB,
    async transcribe(input) {
      const { transcription, profile } = deps.config();
      const resolved = resolveTranscription(transcription);
      if ('problem' in resolved) throw notConfigured(resolved.problem);
      if (input.audio.length > resolved.maxFileMb * BYTES_PER_MB) throw tooLarge(input.audio.length, resolved.maxFileMb);

      const headers: Record<string, string> = { accept: 'application/json' };
      if (resolved.keyName) {
        const key = deps.keychain(profile).get(resolved.keyName);
        if (!key) {
          throw new FermixError({
            code: 'needs_secret',
            message: `Transcription wants its API key from the keychain (${transcription.api_key_ref}), and the keychain has no entry ${resolved.keyName}.`,
            hint: `Enter the key in ${VOICE_SETUP_UI}, or run \`fermix secrets set ${resolved.keyName}\`.`,
            data: { name: resolved.keyName },
          });
        }
        headers.authorization = `Bearer ${key}`;
      }

      const form = new FormData();
      const mime = input.mimeType.split(';')[0].trim().toLowerCase();
      // A copy into a plain ArrayBuffer: the DOM typings (Electron build) refuse a possibly shared buffer.
      form.set('file', new Blob([new Uint8Array(input.audio)], { type: mime }), uploadFileName(input.audio, mime));
      form.set('model', resolved.model);
      form.set('response_format', 'json');

      const where = resolved.baseUrl.origin;
      const data = { endpoint: resolved.endpoint, model: resolved.model };
      const deadline = AbortSignal.timeout(timeoutMs);
      const signal = input.signal ? AbortSignal.any([input.signal, deadline]) : deadline;
      const started = performance.now();
      let response: Response;
      let body: string;
      try {
        // redirect 'error': a transcription API does not redirect, and the key must not follow one.
        response = await fetchImpl(resolved.endpoint, { method: 'POST', headers, body: form, signal, redirect: 'error' });
        body = await readCapped(response);
      } catch (error) {
        if (deadline.aborted) {
          throw failed(`The transcription endpoint at ${where} did not answer within ${timeoutMs >= 1000 ? `${Math.round(timeoutMs / 1000)} s` : `${timeoutMs} ms`}.`, 'Check that the transcription server is running and not overloaded, or record a shorter message.', { ...data, timeout_ms: timeoutMs }, error);
        }
        if (input.signal?.aborted) {
          throw failed('Transcription was cancelled before the endpoint answered.', 'Record again.', data, error);
        }
        throw failed(`Could not reach the transcription endpoint at ${where}: ${networkReason(error)}.`, `Start the transcription server, or fix base_url in ${VOICE_SETUP_UI}.`, data, error);
      }
      const elapsed_ms = Math.round(performance.now() - started);
      if (!response.ok) {
        const said = endpointMessage(body);
        throw failed(
          `The transcription endpoint answered ${response.status}${said ? `: ${said}` : ''}.`,
          hintForStatus(response.status, resolved.keyName),
          { ...data, status: response.status },
        );
      }
      const text = parseTranscript(body, response.headers.get('content-type'));
      if (text === undefined) {
        throw failed(`The transcription endpoint at ${where} answered without a transcript.`, `Check that base_url in ${VOICE_SETUP_UI} points at an OpenAI-compatible API (…/v1).`, { ...data, status: response.status });
      }
      return { text, elapsed_ms, bytes: input.audio.length };
    },
  };
}

/** `{text}` (json, verbose_json) or a plain-text body. */
export function parseTranscript(body: string, contentType: string | null): string | undefined {
  if (contentType && !/json/i.test(contentType) && /^text\/plain/i.test(contentType)) return body.trim();
  try {
    const parsed = JSON.parse(body) as { text?: unknown };
    return typeof parsed.text === 'string' ? parsed.text.trim() : undefined;
  } catch {
    return undefined;
  }
}
