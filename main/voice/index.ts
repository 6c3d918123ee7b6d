// Voice input on the daemon side: the transcription client and the upload checks.
export { createTranscriptionClient, TRANSCRIPTION_TIMEOUT_MS, type TranscriptionClient, type TranscriptionDeps, type Transcript } from './transcription-client.js';
export { decodeAudio, BYTES_PER_MB } from './audio.js';
export { voiceStatus, VOICE_SETUP_UI, type VoiceStatus } from './settings.js';
