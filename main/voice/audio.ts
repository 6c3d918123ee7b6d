/**
 * The audio a client uploads: its declared type, its size against `max_file_mb`, and the file name the
 * endpoint sees. OpenAI-compatible servers pick the decoder from the file name's extension, so the name
 * follows the bytes (sniffed), not only the declared type.
 */
import { FermixError } from '../core/errors.js';
import { VOICE_SETUP_UI } from './settings.js';

export const BYTES_PER_MB = 1024 * 1024;

/** Declared types we forward (MediaRecorder's and the formats OpenAI documents); parameters such as `;codecs=opus` are allowed. */
const ACCEPTED = /^(audio\/(wav|x-wav|wave|webm|ogg|mpeg|mp3|mp4|m4a|x-m4a|aac|flac|x-flac)|video\/(webm|mp4))(\s*;.*)?$/i;

const EXTENSION_BY_CONTAINER: Record<string, string> = { wav: 'wav', ogg: 'ogg', flac: 'flac', webm: 'webm', mp3: 'mp3', mp4: 'm4a' };

export function sniffContainer(bytes: Uint8Array): 'wav' | 'ogg' | 'flac' | 'webm' | 'mp3' | 'mp4' | undefined {
  const ascii = (start: number, end: number) => String.fromCharCode(...bytes.subarray(start, end));
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WAVE') return 'wav';
  if (ascii(0, 4) === 'OggS') return 'ogg';
  if (ascii(0, 4) === 'fLaC') return 'flac';
  if (bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3) return 'webm';
  if (ascii(0, 3) === 'ID3' || (bytes[0] === 0xff && (bytes[1] & 0xe0) === 0xe0)) return 'mp3';
  if (ascii(4, 8) === 'ftyp') return 'mp4';
  return undefined;
}

export function isAcceptedMimeType(mimeType: string): boolean {
  return ACCEPTED.test(mimeType.trim());
}

/** `audio.<ext>` from the bytes, else from the declared type. */
export function uploadFileName(bytes: Uint8Array, mimeType: string): string {
  const container = sniffContainer(bytes);
  if (container) return `audio.${EXTENSION_BY_CONTAINER[container]}`;
  const subtype = /^[a-z]+\/(?:x-)?([a-z0-9]+)/i.exec(mimeType.trim())?.[1]?.toLowerCase() ?? 'bin';
  return `audio.${subtype === 'mpeg' ? 'mp3' : subtype === 'wave' ? 'wav' : subtype}`;
}

export function formatMb(bytes: number): string {
  const mb = bytes / BYTES_PER_MB;
  return `${mb >= 10 ? mb.toFixed(0) : mb.toFixed(1)} MB`;
}

export function tooLarge(bytes: number, maxFileMb: number): FermixError {
  return new FermixError({
    code: 'audio_too_large',
    message: `The recording is ${formatMb(bytes)}; transcription takes at most ${maxFileMb} MB.`,
    hint: `Record a shorter message, or raise [fermix_core.transcription] max_file_mb in config.toml (${VOICE_SETUP_UI} shows the limit).`,
    data: { bytes, max_file_mb: maxFileMb },
  });
}

/** Bytes a base64 string decodes to, without decoding it. */
export function base64DecodedLength(text: string): number {
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  return Math.floor((text.length * 3) / 4) - padding;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Decodes the upload after checking its size from the string's length, so an oversize recording is
 * refused before a second copy of it is made.
 */
export function decodeAudio(base64: string, mimeType: string, maxFileMb: number): Uint8Array {
  if (!isAcceptedMimeType(mimeType)) {
    throw new FermixError({
      code: 'invalid_input',
      message: `"${mimeType.slice(0, 80)}" is not an audio type transcription accepts.`,
      hint: 'Send WAV, WebM, Ogg, MP3, M4A or FLAC audio (the window records WAV).',
      data: { mime_type: mimeType.slice(0, 80) },
    });
  }
  const size = base64DecodedLength(base64);
  if (size > maxFileMb * BYTES_PER_MB) throw tooLarge(size, maxFileMb);
  if (base64.length % 4 !== 0 || !BASE64.test(base64)) {
    throw new FermixError({ code: 'invalid_input', message: 'audio_base64 is not valid base64.', hint: 'Encode the recording with standard base64 (RFC 4648, with padding).' });
  }
  const bytes = new Uint8Array(Buffer.from(base64, 'base64'));
  if (bytes.length === 0) {
    throw new FermixError({ code: 'audio_empty', message: 'The recording is empty.', hint: 'Hold the microphone button (or click it, speak, and click again) and try again.' });
  }
  return bytes;
}
