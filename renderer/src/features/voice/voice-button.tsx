/**
 * VoiceButton — the microphone button of the chat composer.
 *
 *   <VoiceButton onTranscript={(text, delivery) => delivery === 'send' ? send(text) : putInInput(text)} />
 *
 * Props:
 * - onTranscript(text, delivery): called once per recognised recording. `delivery` is the person's setting
 *   (VoiceSettings, kept in localStorage `fermix.voice.delivery`): 'send' = send `text` as the operator
 *   message now; 'edit' = place it in the input for editing. `mode` overrides the setting.
 * - mode?: 'send' | 'edit'
 * - disabled?: boolean — e.g. while the daemon is unreachable.
 * - onOpenSettings?: () => void — navigates to Settings (the button first selects its Voice section): a click on
 *   the microphone while voice is not set up goes there directly, and the "not set up" message offers it.
 * - align?: 'start' | 'end' (default 'end') — which edge of the button the floating meter and messages align to.
 *
 * Needs a VoiceProvider above it (voice-context.tsx); without one it renders nothing.
 *
 * Use: click to start and click to stop (click-to-talk); or hold the button, Space on the focused
 * button, or Ctrl+Shift+Space, and release to stop (push-to-talk); Escape drops a recording, or closes a
 * message. In the desktop app Ctrl+Shift+Space is global (main/shell/shortcuts.ts): press to start, press
 * to stop, or hold. Before any recording the button shows whether voice is set up and a microphone exists;
 * a failed transcription keeps the recording, with Retry.
 */
import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { useStore } from 'zustand';
import type { WireError } from '../../../../main/core/errors.js';
import { formatClock, type VoiceDelivery, type VoiceStore } from './store.js';
import { openSettingsSection } from '../settings/sections.js';
import { PUSH_TO_TALK_KEYS, shortcutScope, useVoiceStore } from './voice-context.js';
import './voice.css';

export interface VoiceButtonProps {
  onTranscript(text: string, delivery: VoiceDelivery): void;
  mode?: VoiceDelivery;
  disabled?: boolean;
  onOpenSettings?: () => void;
  align?: 'start' | 'end';
}

export function VoiceButton(props: VoiceButtonProps) {
  const store = useVoiceStore();
  if (!store) return null;
  return <VoiceControl store={store} {...props} />;
}

const TITLES: Record<string, string> = {
  transcription_not_configured: 'Voice input is not set up',
  audio_too_large: 'Recording too large',
  transcription_failed: 'Transcription failed',
  needs_secret: 'Transcription key missing',
  keyring_unavailable: 'Keychain locked',
  microphone_denied: 'Microphone blocked',
  microphone_missing: 'No microphone',
  microphone_busy: 'Microphone busy',
  microphone_unavailable: 'Microphone unavailable',
};

export function voiceErrorTitle(error: WireError): string {
  return TITLES[error.code] ?? 'Voice input failed';
}

/** "Voice input is not set up: no endpoint…" under the title "Voice input is not set up" reads "No endpoint…". */
function withoutTitle(message: string, title: string): string {
  if (!message.startsWith(`${title}: `)) return message;
  const rest = message.slice(title.length + 2);
  return rest.charAt(0).toUpperCase() + rest.slice(1);
}

function Code({ text }: { text: string }) {
  // Hints name commands in backticks, as the CLI prints them.
  return <>{text.split('`').map((part, index) => (index % 2 === 1 ? <code key={index}>{part}</code> : part))}</>;
}

function VoiceControl({ store, onTranscript, mode, disabled, onOpenSettings, align = 'end' }: VoiceButtonProps & { store: VoiceStore }) {
  const phase = useStore(store, (state) => state.phase);
  const source = useStore(store, (state) => state.source);
  const holding = useStore(store, (state) => state.holding);
  const level = useStore(store, (state) => state.level);
  const elapsedMs = useStore(store, (state) => state.elapsedMs);
  const maxSeconds = useStore(store, (state) => state.maxSeconds);
  const error = useStore(store, (state) => state.error);
  const notice = useStore(store, (state) => state.notice);
  const delivery = useStore(store, (state) => state.delivery);
  const notSetUp = useStore(store, (state) => state.status?.configured === false);
  const noMicrophone = useStore(store, (state) => state.microphone === 'missing');
  const kept = useStore(store, (state) => state.kept !== null);

  const latest = useRef({ onTranscript, mode });
  latest.current = { onTranscript, mode };
  useEffect(() => store.getState().onTranscript((transcript) => latest.current.onTranscript(transcript.text, latest.current.mode ?? transcript.delivery)), [store]);
  // What the button shows before any press: set up or not, a microphone or none. Looked at again when the
  // window regains focus (config.toml edited meanwhile) and when devices come and go.
  useEffect(() => {
    const look = () => {
      void store.getState().refreshStatus();
      void store.getState().checkMicrophone();
    };
    look();
    const devices = typeof navigator === 'undefined' ? undefined : navigator.mediaDevices;
    const onDevices = () => void store.getState().checkMicrophone();
    devices?.addEventListener?.('devicechange', onDevices);
    window.addEventListener('focus', look);
    return () => {
      devices?.removeEventListener?.('devicechange', onDevices);
      window.removeEventListener('focus', look);
    };
  }, [store]);
  const openVoiceSettings = onOpenSettings
    ? () => {
        openSettingsSection('voice');
        onOpenSettings();
      }
    : undefined;

  // A pointer press or Space is handled on down/up; the click that follows must not toggle again.
  const suppressClick = useRef(false);
  const pointerPressed = useRef(false);
  const suppressNextClick = () => {
    suppressClick.current = true;
    setTimeout(() => (suppressClick.current = false), 0);
  };

  const recording = phase === 'recording' || phase === 'starting';
  const busy = phase === 'transcribing';
  const effectiveDelivery = mode ?? delivery;
  const verb = effectiveDelivery === 'send' ? 'send' : 'transcribe';
  const idle = !recording && !busy;
  // Not set up: a press would only lose the words, so the button is a way to Settings → Voice instead.
  const setUpFirst = idle && notSetUp;
  const label = busy
    ? 'Transcribing voice input'
    : recording
      ? 'Stop voice input'
      : setUpFirst
        ? 'Set up voice input'
        : noMicrophone
          ? 'Start voice input (no microphone found)'
          : 'Start voice input';
  const title = recording
    ? `Stop and ${verb}`
    : setUpFirst
      ? `Voice input is not set up${openVoiceSettings ? ': click to open Settings → Voice' : ''}`
      : noMicrophone
        ? 'No microphone found: connect one, or choose an input device in your system sound settings'
        : `Voice input: click to start and again to ${verb}, or hold to talk. Shortcut: Ctrl+Shift+Space (${shortcutScope()})`;
  const secondsLeft = Math.max(0, Math.ceil(maxSeconds - elapsedMs / 1000));
  const howToStop = holding
    ? `Release to ${verb}`
    : source === 'shortcut'
      ? `Press Ctrl+Shift+Space again to ${verb}`
      : `Click the microphone again to ${verb}`;
  const announcement = phase === 'recording' ? 'Recording' : busy ? 'Transcribing' : notice ?? '';

  // The messages float above the button; with no room above (a composer at the top), below it.
  const controlRef = useRef<HTMLDivElement>(null);
  const popoverRef = useRef<HTMLDivElement>(null);
  const [below, setBelow] = useState(false);
  const showPopover = recording || busy || Boolean(error) || Boolean(notice);
  useLayoutEffect(() => {
    if (!showPopover || !controlRef.current || !popoverRef.current) return;
    const room = controlRef.current.getBoundingClientRect().top;
    setBelow(room < popoverRef.current.offsetHeight + 16);
  }, [showPopover, phase, error, notice]);

  // Escape closes a message (while recording, VoiceProvider's Escape discards the recording instead).
  const messageShown = Boolean(error) || Boolean(notice);
  useEffect(() => {
    if (!messageShown) return;
    const onKey = (event: globalThis.KeyboardEvent) => {
      const state = store.getState();
      if (event.key !== 'Escape' || state.phase !== 'idle' || event.defaultPrevented) return;
      event.preventDefault(); // consumed: the window-wide Escape does not also stop the turn
      state.dismiss();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [messageShown, store]);

  const onPointerDown = (event: PointerEvent<HTMLButtonElement>) => {
    if (event.button !== 0 || disabled || busy || setUpFirst) return;
    event.currentTarget.setPointerCapture?.(event.pointerId);
    pointerPressed.current = true;
    store.getState().press('button');
  };
  const onPointerUp = () => {
    // Only a press this button started owns the click that follows (not set up: the click opens Settings).
    if (!pointerPressed.current) return;
    pointerPressed.current = false;
    store.getState().release('button');
    suppressNextClick();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key !== ' ') return;
    event.preventDefault();
    if (!event.repeat && !disabled && !busy && !setUpFirst) store.getState().press('button');
  };
  const onKeyUp = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key !== ' ') return;
    event.preventDefault();
    store.getState().release('button');
    suppressNextClick();
  };
  const onClick = () => {
    if (suppressClick.current) {
      suppressClick.current = false;
      return;
    }
    if (setUpFirst && !disabled) {
      if (openVoiceSettings) openVoiceSettings();
      else store.getState().toggle('button'); // no way to Settings here: the store says what is missing
      return;
    }
    // Enter, or a click from assistive technology (no pointer events): click-to-talk.
    if (!disabled && !busy) store.getState().toggle('button');
  };

  return (
    <div ref={controlRef} className={`voice-control align-${align}${below ? ' place-below' : ''}`}>
      <button
        type="button"
        className={`voice-button${recording ? ' is-recording' : ''}${busy ? ' is-busy' : ''}${setUpFirst ? ' is-not-set-up' : ''}${idle && !setUpFirst && noMicrophone ? ' is-no-mic' : ''}`}
        aria-label={label}
        aria-pressed={recording}
        aria-disabled={busy || undefined}
        aria-busy={busy || undefined}
        aria-keyshortcuts={PUSH_TO_TALK_KEYS}
        title={title}
        disabled={disabled}
        onPointerDown={onPointerDown}
        onPointerUp={onPointerUp}
        onPointerCancel={onPointerUp}
        onKeyDown={onKeyDown}
        onKeyUp={onKeyUp}
        onClick={onClick}
        onContextMenu={(event) => event.preventDefault()}
      >
        {busy ? <span className="voice-spinner" aria-hidden="true" /> : recording ? <StopIcon /> : <MicIcon crossed={idle && !setUpFirst && noMicrophone} />}
        {setUpFirst && <span className="voice-badge" aria-hidden="true">!</span>}
      </button>
      {/* Always in the page, so screen readers hear each change; without the ticking clock. */}
      <span className="voice-sr-only" role="status" aria-live="polite">{announcement}</span>
      {showPopover && (
        <div ref={popoverRef} className="voice-popover">
          {recording && (
            <div className="voice-recording">
              <p className="voice-recording-head">
                <span className="voice-dot" aria-hidden="true" />
                <span>{phase === 'starting' ? 'Opening the microphone…' : 'Recording'}</span>
                <span className="voice-clock">{formatClock(elapsedMs)}{secondsLeft < 60 ? ` · ${secondsLeft} s left` : ''}</span>
              </p>
              <div className="voice-meter" role="meter" aria-label="Microphone level" aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(level * 100)}>
                {/* The gradient stays put (green → red across the track); a cover hides what is above the level. */}
                <span className="voice-meter-cover" style={{ transform: `scaleX(${(1 - level).toFixed(3)})` }} />
              </div>
              <p className="voice-hint">{howToStop} · Esc discards</p>
            </div>
          )}
          {busy && (
            <p className="voice-recording-head">
              <span className="voice-spinner" aria-hidden="true" />
              <span>Transcribing…</span>
            </p>
          )}
          {error && (
            <div className="voice-error" role="alert">
              <p className="voice-error-title">{voiceErrorTitle(error)}</p>
              <p className="voice-error-message"><Code text={withoutTitle(error.message, voiceErrorTitle(error))} /></p>
              {error.hint && <p className="voice-error-hint"><Code text={error.hint} /></p>}
              {kept && <p className="voice-error-hint">The recording is kept: Retry sends it again.</p>}
              <div className="voice-error-actions">
                {kept && (
                  <button type="button" className="link-button" onClick={() => void store.getState().retry()}>Retry</button>
                )}
                {openVoiceSettings && (error.code === 'transcription_not_configured' || error.code === 'needs_secret') && (
                  <button type="button" className="link-button" onClick={openVoiceSettings}>Open Settings → Voice</button>
                )}
                <button type="button" className="link-button" onClick={() => store.getState().dismiss()} aria-label={kept ? 'Discard the recording and this voice message' : 'Dismiss this voice message'}>{kept ? 'Discard' : 'Dismiss'}</button>
              </div>
            </div>
          )}
          {notice && !recording && !busy && (
            <p className="voice-notice">
              <span>{notice}</span>
              <button type="button" className="link-button" onClick={() => store.getState().dismiss()} aria-label="Dismiss this voice message">Dismiss</button>
            </p>
          )}
        </div>
      )}
    </div>
  );
}

function MicIcon({ crossed = false }: { crossed?: boolean }) {
  return (
    <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
      <rect x="9" y="3" width="6" height="11" rx="3" fill="currentColor" />
      <path d="M5.5 11a6.5 6.5 0 0 0 13 0M12 17.5V21M8.5 21h7" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
      {crossed && <path d="M4 4l16 16" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />}
    </svg>
  );
}

function StopIcon() {
  return (
    <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
      <rect x="6.5" y="6.5" width="11" height="11" rx="2" fill="currentColor" />
    </svg>
  );
}
