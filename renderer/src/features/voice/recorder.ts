/**
 * The microphone: getUserMedia → MediaRecorder (WebM/Opus in Chromium), with an AnalyserNode on the same
 * stream for the level meter. One Recording per press; the stream and audio graph are released on stop.
 */
import type { WireError } from '../../../../main/core/errors.js';

export interface Recording {
  readonly mimeType: string;
  /** Loudness now, 0 (silence, −60 dBFS and below) to 1 (0 dBFS). */
  level(): number;
  /** Ends the recording and resolves with everything recorded. */
  stop(): Promise<Blob>;
  /** Ends the recording and drops it. */
  cancel(): void;
}

export type StartRecording = () => Promise<Recording>;

/** Preferred containers, best first; Chromium records the first, Safari the last. */
const TYPES = ['audio/webm;codecs=opus', 'audio/ogg;codecs=opus', 'audio/webm', 'audio/mp4'];

export class MicrophoneError extends Error {
  constructor(readonly wire: WireError) {
    super(wire.message);
  }
}

export function microphoneError(error: unknown): WireError {
  const name = (error as { name?: string })?.name ?? '';
  if (name === 'NotAllowedError' || name === 'SecurityError') {
    return { code: 'microphone_denied', message: 'The microphone permission was refused.', hint: 'Allow the microphone for Fermix (in the browser: the icon at the left of the address bar; on the desktop: your system privacy settings), then try again.' };
  }
  if (name === 'NotFoundError' || name === 'OverconstrainedError') {
    return { code: 'microphone_missing', message: 'No microphone was found.', hint: 'Connect a microphone, or choose an input device in your system sound settings.' };
  }
  if (name === 'NotReadableError' || name === 'AbortError') {
    return { code: 'microphone_busy', message: 'The microphone could not be opened; another application may be using it.', hint: 'Close the other application, or pick another input device, and try again.' };
  }
  return { code: 'microphone_failed', message: `Recording failed: ${(error as Error)?.message ?? String(error)}.`, hint: 'Try again; if it keeps failing, reload the window.' };
}

function levelOf(analyser: AnalyserNode, buffer: Float32Array<ArrayBuffer>): number {
  analyser.getFloatTimeDomainData(buffer);
  let sum = 0;
  for (const sample of buffer) sum += sample * sample;
  const rms = Math.sqrt(sum / buffer.length);
  const db = 20 * Math.log10(Math.max(rms, 1e-6));
  return Math.max(0, Math.min(1, (db + 60) / 60));
}

export const startMicrophoneRecording: StartRecording = async () => {
  const devices = typeof navigator === 'undefined' ? undefined : navigator.mediaDevices;
  if (!devices?.getUserMedia || typeof MediaRecorder === 'undefined') {
    throw new MicrophoneError({
      code: 'microphone_unavailable',
      message: 'This window cannot use a microphone.',
      hint: 'Open Fermix from the desktop app or from the http://127.0.0.1 address the daemon prints (`fermix status`): browsers allow the microphone only on secure pages.',
    });
  }
  let stream: MediaStream;
  try {
    stream = await devices.getUserMedia({ audio: { channelCount: 1, echoCancellation: true, noiseSuppression: true, autoGainControl: true } });
  } catch (error) {
    throw new MicrophoneError(microphoneError(error));
  }
  const mimeType = TYPES.find((type) => MediaRecorder.isTypeSupported(type)) ?? '';
  let recorder: MediaRecorder;
  try {
    recorder = new MediaRecorder(stream, mimeType ? { mimeType } : undefined);
  } catch (error) {
    stream.getTracks().forEach((track) => track.stop());
    throw new MicrophoneError(microphoneError(error));
  }
  const chunks: Blob[] = [];
  recorder.addEventListener('dataavailable', (event) => {
    if (event.data.size > 0) chunks.push(event.data);
  });

  let audio: AudioContext | undefined;
  let analyser: AnalyserNode | undefined;
  try {
    audio = new AudioContext();
    analyser = audio.createAnalyser();
    analyser.fftSize = 1024;
    audio.createMediaStreamSource(stream).connect(analyser);
  } catch {
    analyser = undefined; // no meter, the recording still works
  }
  const samples = new Float32Array(analyser?.fftSize ?? 0);
  const release = () => {
    stream.getTracks().forEach((track) => track.stop());
    void audio?.close().catch(() => {});
  };

  recorder.start(250);
  return {
    mimeType: recorder.mimeType || mimeType || 'audio/webm',
    level: () => (analyser ? levelOf(analyser, samples) : 0),
    stop: () => new Promise<Blob>((resolve, reject) => {
      if (recorder.state === 'inactive') {
        release();
        resolve(new Blob(chunks, { type: recorder.mimeType || mimeType }));
        return;
      }
      recorder.addEventListener('stop', () => {
        release();
        resolve(new Blob(chunks, { type: recorder.mimeType || mimeType }));
      }, { once: true });
      recorder.addEventListener('error', (event) => {
        release();
        reject(new MicrophoneError(microphoneError((event as ErrorEvent).error ?? event)));
      }, { once: true });
      recorder.stop();
    }),
    cancel: () => {
      if (recorder.state !== 'inactive') recorder.stop();
      release();
    },
  };
};
