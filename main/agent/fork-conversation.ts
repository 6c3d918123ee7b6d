/**
 * chat.fork (edit-and-resend, regenerate): a new conversation holding every message written before a
 * finished turn, so that turn can be sent again there. The original conversation is never changed — the
 * rest of it stays where it was, which is why this forks instead of deleting history.
 */
import { randomUUID } from 'node:crypto';
import { FermixError } from '../core/errors.js';
import type { Database } from '../store/database.js';
import { FINISHED_STATUSES, type TurnStore } from '../store/turns.js';

export interface ForkedConversation {
  conversation_id: string;
  title: string;
  /** The words the forked turn is sent with: the edit, or the turn's own message. */
  message: string;
}

export function forkBeforeTurn(db: Database, store: TurnStore, input: { conversation_id: string; turn_id: string; message?: string }): ForkedConversation {
  const turn = store.getTurn(input.turn_id);
  if (turn.conversation_id !== input.conversation_id) {
    throw new FermixError({ code: 'turn_not_found', message: `Turn ${input.turn_id} is not in conversation ${input.conversation_id}.`, hint: 'List the turns of the conversation with the chat.turns API method.', data: { id: input.turn_id } });
  }
  if (!FINISHED_STATUSES.has(turn.status)) {
    throw new FermixError({ code: 'turn_running', message: 'That turn has not finished yet.', hint: 'Stop it first (/stop or the Stop button), then edit or regenerate it.', data: { id: input.turn_id, status: turn.status } });
  }
  // The turn's first message is its user message (written when it started); a turn that never started has none.
  const message = input.message ?? turn.options.message ?? '';
  if (!message.trim()) {
    throw new FermixError({ code: 'invalid_arguments', message: 'That turn has no words to send again (it carried only files).', hint: 'Type the message again in the composer and attach the files anew.', data: { id: input.turn_id } });
  }
  const first = db.get<{ id: number | null }>('SELECT MIN(id) AS id FROM messages WHERE turn_id = ?', [turn.id])?.id ?? null;
  const original = db.get<{ title: string }>('SELECT title FROM conversations WHERE id = ?', [input.conversation_id])?.title ?? 'Conversation';
  const title = `${original.replace(/ \((edited|retry)\)$/, '')} (${input.message === undefined ? 'retry' : 'edited'})`;
  const id = randomUUID();
  db.transaction(() => {
    store.ensureConversation(id, title);
    // Copied without turn ids: they were answered in the original conversation, whose turns stay there.
    db.run(
      `INSERT INTO messages (conversation_id, role, content, data, created_at, turn_id)
       SELECT ?, role, content, data, created_at, NULL FROM messages WHERE conversation_id = ? ${first === null ? '' : 'AND id < ?'} ORDER BY id`,
      first === null ? [id, input.conversation_id] : [id, input.conversation_id, first],
    );
  });
  return { conversation_id: id, title, message };
}
