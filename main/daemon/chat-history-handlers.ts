/**
 * API handler of chat.history (main/api/methods/chat-history.ts): the chat window's thread, with the turn
 * of each message. Wire it in compose.ts: `...createChatHistoryHandlers({ db })`.
 */
import type { Handlers } from '../api/dispatcher.js';
import { FermixError } from '../core/errors.js';
import type { Database } from '../store/database.js';
import { createCompactionStore } from '../store/compactions.js';
import { createMessageHistory } from '../store/message-history.js';

export function createChatHistoryHandlers(options: { db: Database }): Pick<Handlers, 'chat.history'> {
  const history = createMessageHistory(options.db);
  const compactions = createCompactionStore(options.db);
  return {
    'chat.history': (input) => {
      const page = history.page(input.conversation_id, input.limit, input.before_id);
      if (page.messages.length === 0 && input.before_id === undefined && !history.conversationExists(input.conversation_id)) {
        throw new FermixError({ code: 'conversation_not_found', message: `No conversation with id ${input.conversation_id}.`, hint: 'List conversations with the conversations.list API method or open one from the sidebar.', data: { id: input.conversation_id } });
      }
      const first = page.messages[0]?.id;
      const last = page.messages.at(-1)?.id;
      const cuts = first === undefined || last === undefined ? [] : compactions.between(input.conversation_id, first, last);
      return { ...page, compactions: cuts.map(({ conversation_id: _c, provider: _p, model: _m, ...row }) => row) };
    },
  };
}
