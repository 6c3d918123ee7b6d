import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useAttachments, useThread } from '../../app/model-context.js';
import { AttachButton } from './attachments/attach-button.js';
import { PendingFiles } from './attachments/pending-files.js';
import { useFileDrop } from './attachments/use-file-drop.js';
import { VoiceButton } from '../voice/voice-button.js';
import { ModelPicker } from './composer/model-picker.js';
import { SLASH_COMMANDS } from './slash-commands.js';
import { activeTurn } from './thread/thread-types.js';

/**
 * The message box: Enter sends, Shift+Enter starts a new line, Escape stops the running turn.
 * A leading "/" is a command (/help lists them), "//" sends a message that starts with a slash.
 */
export function Composer({ conversationId, disabled, onOpenSettings }: { conversationId: string | null; disabled?: boolean; onOpenSettings?: () => void }) {
  const submit = useThread((state) => state.submit);
  const stop = useThread((state) => state.stop);
  const sending = useThread((state) => state.sending);
  const running = useThread((state) => activeTurn(state.thread) !== null);
  const waitingApproval = useThread((state) => activeTurn(state.thread)?.status === 'parked');
  // A held turn's banner in the thread has Stop (and Resume): no second Stop here. Escape still stops.
  const held = useThread((state) => (state.thread?.hold ?? 'running') !== 'running');
  const [text, setText] = useState('');
  const pendingFiles = useAttachments((state) => state.pending.length);
  const addFiles = useAttachments((state) => state.add);
  const takeFiles = useAttachments((state) => state.take);
  const drop = useFileDrop(disabled);
  const box = useRef<HTMLTextAreaElement | null>(null);
  const hintId = useId();

  useEffect(() => {
    box.current?.focus();
  }, [conversationId]);

  // Grow with the text up to about ten lines, then scroll.
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    element.style.height = 'auto';
    element.style.height = `${Math.min(element.scrollHeight, 240)}px`;
  }, [text]);

  const send = () => {
    const value = text.trim();
    if ((!value && pendingFiles === 0) || disabled) return;
    setText('');
    // A slash command leaves the attached files for the next message.
    const isCommand = value.startsWith('/') && !value.startsWith('//');
    void submit(value, isCommand ? [] : takeFiles());
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      send();
    } else if (event.key === 'Escape' && running) {
      event.preventDefault();
      void stop();
    }
  };

  const command = text.startsWith('/') && !text.startsWith('//') ? text.slice(1).split(/\s/)[0].toLowerCase() : null;
  const matches = command === null ? [] : SLASH_COMMANDS.filter((each) => each.usage.slice(1).startsWith(command));

  return (
    <form
      className={drop.dragging ? 'composer composer-dropping' : 'composer'}
      aria-label="Write a message"
      {...drop.dropTarget}
      onSubmit={(event) => {
        event.preventDefault();
        send();
      }}
    >
      {matches.length > 0 && (
        <ul className="command-hints" aria-label="Matching commands">
          {matches.map((each) => (
            <li key={each.usage}>
              <code>{each.usage}</code> <span className="muted">{each.summary}</span>
            </li>
          ))}
        </ul>
      )}
      <PendingFiles />
      <div className="composer-row">
        <AttachButton onFiles={addFiles} disabled={disabled} />
        <textarea
          ref={box}
          value={text}
          rows={1}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
          onPaste={drop.onPaste}
          placeholder={disabled ? 'Choose a model first' : waitingApproval ? 'An approval is waiting — a message now is queued behind it' : conversationId ? 'Message Fermix' : 'Message Fermix to start a new conversation'}
          aria-label="Message"
          aria-describedby={hintId}
          disabled={disabled}
        />
        <VoiceButton
          disabled={disabled}
          onTranscript={(spoken, delivery) => {
            if (delivery === 'send') void submit(spoken);
            else {
              setText((current) => (current ? `${current} ${spoken}` : spoken));
              box.current?.focus();
            }
          }}
          onOpenSettings={onOpenSettings}
        />
        {/* One button slot, as in other chat apps: Stop while a turn runs and the box is empty, Send (which
            queues behind the turn) once there is something to send. A held turn's Stop is on its banner. */}
        {running && !held && !text.trim() && pendingFiles === 0 ? (
          <button type="button" className="danger" onClick={() => void stop()} aria-label="Stop the running turn (Escape)">
            Stop
          </button>
        ) : (
          <button type="submit" className="primary" disabled={disabled || sending || (!text.trim() && pendingFiles === 0)} aria-label="Send message (Enter)">
            Send
          </button>
        )}
      </div>
      <div className="composer-footer">
        <ModelPicker disabled={disabled} />
        <p id={hintId} className="composer-hint muted small">
          Enter sends · Shift+Enter new line · Esc stops · / for commands · drop or paste files to attach
        </p>
      </div>
    </form>
  );
}
