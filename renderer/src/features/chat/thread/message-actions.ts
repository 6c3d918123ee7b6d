/**
 * The thread store's message actions (retry a failed send, chat.fork for edit-and-resend and regenerate,
 * continue after a stop), kept apart so thread-store.ts stays one screen of state handling.
 */
import type { WireError } from '../../../../../main/core/errors.js';
import type { ApiClient } from '../../../api/client.js';
import { toWireError } from '../../connection/store.js';
import type { Thread } from './thread-types.js';

interface Store {
  client: ApiClient;
  get(): { thread: Thread | null; submit(input: string): Promise<void> };
  update(change: (thread: Thread) => Thread): void;
  notice(text: string, error?: WireError | null): void;
}

export function messageActions({ client, get, update, notice }: Store) {
  return {
    async retrySend(key: string): Promise<void> {
      const row = get().thread?.items.find((item) => item.kind === 'user' && item.key === key);
      if (!row || row.kind !== 'user' || !row.failed || row.text === null) return;
      update((thread) => ({ ...thread, items: thread.items.filter((item) => item.key !== key) }));
      // A message that began with a slash was typed as "//…": resend it as a message again, not a command.
      await get().submit(row.text.startsWith('/') ? `/${row.text}` : row.text);
    },

    async fork(turnId: string, message?: string): Promise<string | undefined> {
      const thread = get().thread;
      if (!thread) return undefined;
      try {
        const forked = await client.call('chat.fork', { conversation_id: thread.conversationId, turn_id: turnId, ...(message === undefined ? {} : { message }) });
        return forked.conversation_id;
      } catch (error) {
        notice(message === undefined ? 'Regenerating did not work.' : 'Sending the edited message did not work.', toWireError(error));
        return undefined;
      }
    },

    continueTurn(): Promise<void> {
      return get().submit('Continue from where you stopped.');
    },
  };
}
