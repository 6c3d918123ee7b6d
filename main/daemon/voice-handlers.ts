/**
 * API handlers of voice.* (main/api/methods/voice.ts). The composition root spreads them into its table:
 *   ...createVoiceHandlers({ config: createConfigReader(paths.config), keychain: (profile) => createKeychain({ profile }), logger })
 * Config is read per call, so an endpoint set in Settings → Voice works on the next recording.
 */
import type { Handlers } from '../api/dispatcher.js';
import type { FermixConfig } from '../config/schema.js';
import { isFermixError } from '../core/errors.js';
import type { Keychain } from '../secrets/keychain.js';
import { createTranscriptionClient, decodeAudio } from '../voice/index.js';
import type { Logger } from './logger.js';

export type VoiceMethodName = 'voice.transcribe' | 'voice.status';

export interface VoiceHandlerDeps {
  /** The current config (createConfigReader(paths.config): re-parsed only when the file changed). */
  config: () => FermixConfig;
  keychain: (profile: string) => Pick<Keychain, 'get'>;
  logger?: Pick<Logger, 'info' | 'warn'>;
  /** Tests only: a shorter deadline than the 120 s default. */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

export function createVoiceHandlers(deps: VoiceHandlerDeps): Pick<Handlers, VoiceMethodName> {
  const client = createTranscriptionClient({
    config: () => {
      const core = deps.config().fermix_core;
      return { transcription: core.transcription, profile: core.profile };
    },
    keychain: deps.keychain,
    timeoutMs: deps.timeoutMs,
    fetch: deps.fetch,
  });
  return {
    'voice.status': () => client.status(),
    'voice.transcribe': async (input, context) => {
      const maxFileMb = deps.config().fermix_core.transcription.max_file_mb;
      const started = performance.now();
      try {
        const audio = decodeAudio(input.audio_base64, input.mime_type, maxFileMb);
        const result = await client.transcribe({ audio, mimeType: input.mime_type, signal: context.signal });
        // Sizes and times only: what was said stays out of the log.
        deps.logger?.info('voice transcribed', { bytes: result.bytes, mime_type: input.mime_type, endpoint_ms: result.elapsed_ms, total_ms: Math.round(performance.now() - started), chars: result.text.length });
        return result;
      } catch (error) {
        if (isFermixError(error)) deps.logger?.warn('voice transcription refused', { code: error.code, status: error.data?.status, transport: context.transport });
        throw error;
      }
    },
  };
}
