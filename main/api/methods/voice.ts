import { z } from 'zod';
import { defineMethod } from '../define.js';

/** 200 MB (the highest max_file_mb config allows) as base64; the configured limit is checked by the handler. */
const MAX_BASE64_CHARS = Math.ceil((200 * 1024 * 1024) / 3) * 4;

export const voiceStatusSchema = z.object({
  /** True when a recording can be transcribed now (endpoint and model set, nothing refused). */
  configured: z.boolean(),
  base_url: z.string().nullable(),
  model: z.string().nullable(),
  max_file_mb: z.number().int(),
  /** `@keyring:NAME`, or null for an endpoint without a key (a local whisper.cpp server). */
  api_key_ref: z.string().nullable(),
  /** Why voice is not usable, in a few words; null when configured. */
  problem: z.string().nullable(),
});

export const voiceMethods = {
  'voice.transcribe': defineMethod({
    description: 'Transcribe a recording with the configured endpoint ([fermix_core.transcription]). Errors: transcription_not_configured, audio_too_large, transcription_failed.',
    input: z.object({
      audio_base64: z.string().min(1).max(MAX_BASE64_CHARS),
      /** The recording's type, e.g. audio/wav or audio/webm;codecs=opus. */
      mime_type: z.string().trim().min(3).max(200),
    }).strict(),
    output: z.object({
      text: z.string(),
      /** Round trip to the endpoint, in milliseconds. */
      elapsed_ms: z.number().int(),
      bytes: z.number().int(),
    }),
  }),
  'voice.status': defineMethod({
    description: 'Whether voice input is set up: endpoint, model, size limit, and what is missing.',
    input: z.object({}).strict().default({}),
    output: voiceStatusSchema,
  }),
};
