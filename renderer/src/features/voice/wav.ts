/**
 * Recordings leave the window as 16 kHz mono 16-bit WAV: every OpenAI-compatible server reads WAV
 * (whisper.cpp's server reads nothing else unless started with --convert, and has no ffmpeg here), it is
 * what speech models consume anyway, and 20 MB holds ~10 minutes. MediaRecorder gives WebM/Opus; the
 * browser decodes its own recording with decodeAudioData, which also resamples to the context's rate.
 */
export const WAV_SAMPLE_RATE = 16_000;
/** Bytes per second of 16 kHz mono 16-bit PCM. */
export const WAV_BYTES_PER_SECOND = WAV_SAMPLE_RATE * 2;
export const WAV_HEADER_BYTES = 44;

/** PCM16 little-endian WAV of mono float samples in [-1, 1]. */
export function encodeWav(samples: Float32Array, sampleRate: number): Uint8Array {
  const bytes = new Uint8Array(WAV_HEADER_BYTES + samples.length * 2);
  const view = new DataView(bytes.buffer);
  const text = (offset: number, value: string) => [...value].forEach((char, index) => view.setUint8(offset + index, char.charCodeAt(0)));
  text(0, 'RIFF');
  view.setUint32(4, 36 + samples.length * 2, true);
  text(8, 'WAVE');
  text(12, 'fmt ');
  view.setUint32(16, 16, true); // fmt chunk size
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, 1, true); // mono
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * 2, true); // byte rate
  view.setUint16(32, 2, true); // block align
  view.setUint16(34, 16, true); // bits per sample
  text(36, 'data');
  view.setUint32(40, samples.length * 2, true);
  for (let index = 0; index < samples.length; index += 1) {
    const sample = Math.max(-1, Math.min(1, samples[index]));
    view.setInt16(WAV_HEADER_BYTES + index * 2, sample < 0 ? sample * 0x8000 : sample * 0x7fff, true);
  }
  return bytes;
}

/** Average of the channels. */
export function downmix(channels: Float32Array[]): Float32Array {
  if (channels.length === 1) return channels[0];
  const mono = new Float32Array(channels[0].length);
  for (const channel of channels) for (let index = 0; index < mono.length; index += 1) mono[index] += channel[index] / channels.length;
  return mono;
}

export interface Encoded {
  bytes: Uint8Array;
  mimeType: string;
  /** Seconds of audio, when known. */
  duration_s: number | null;
}

type OfflineContextClass = new (channels: number, length: number, sampleRate: number) => BaseAudioContext;

/**
 * The recording as 16 kHz mono WAV. When this browser cannot decode its own recording, the original
 * bytes are sent with their type (OpenAI and Groq read WebM and Ogg; a WAV-only server will say so).
 */
export async function toUploadAudio(recording: Blob, scope: { OfflineAudioContext?: OfflineContextClass } = globalThis as never): Promise<Encoded> {
  const original = new Uint8Array(await recording.arrayBuffer());
  const Offline = scope.OfflineAudioContext;
  if (!Offline) return { bytes: original, mimeType: recording.type || 'audio/webm', duration_s: null };
  try {
    const context = new Offline(1, 1, WAV_SAMPLE_RATE);
    // decodeAudioData detaches the buffer it is given: hand it a copy.
    const decoded = await context.decodeAudioData(original.slice().buffer);
    const channels = Array.from({ length: decoded.numberOfChannels }, (_, index) => decoded.getChannelData(index));
    return { bytes: encodeWav(downmix(channels), decoded.sampleRate), mimeType: 'audio/wav', duration_s: decoded.duration };
  } catch {
    return { bytes: original, mimeType: recording.type || 'audio/webm', duration_s: null };
  }
}

/** Standard base64 of bytes, in chunks (String.fromCharCode has an argument limit). */
export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let offset = 0; offset < bytes.length; offset += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(offset, offset + 0x8000));
  }
  return btoa(binary);
}
