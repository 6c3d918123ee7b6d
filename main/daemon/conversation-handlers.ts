/**
 * API handlers of conversations.* (main/api/methods/conversations.ts): the window's list, rename, pin,
 * delete with undo, and search. Wire it in compose.ts: `...createConversationHandlers({ conversations, events })`.
 */
import type { Handlers } from '../api/dispatcher.js';
import type { EventBus } from './event-bus.js';
import type { ConversationStore } from '../store/conversations.js';

type ConversationMethodName =
  | 'conversations.create'
  | 'conversations.list'
  | 'conversations.get'
  | 'conversations.rename'
  | 'conversations.pin'
  | 'conversations.delete'
  | 'conversations.restore'
  | 'conversations.search';

export function createConversationHandlers(options: { conversations: ConversationStore; events: Pick<EventBus, 'emit'> }): Pick<Handlers, ConversationMethodName> {
  const { conversations, events } = options;
  const updated = <T extends { id: string; title: string }>(row: T): T => {
    events.emit(row.id, 'conversation.updated', { id: row.id, title: row.title });
    return row;
  };
  return {
    'conversations.create': (input) => {
      const row = conversations.create(input.title, input.auto_title ? 'auto' : undefined);
      events.emit(row.id, 'conversation.created', { id: row.id, title: row.title });
      return row;
    },
    'conversations.list': (input) => ({ conversations: conversations.list(input.limit) }),
    'conversations.get': (input) => ({ conversation: conversations.get(input.id), ...conversations.page(input.id, input.limit, input.before_id) }),
    'conversations.rename': (input) => updated(conversations.rename(input.id, input.title)),
    'conversations.pin': (input) => updated(conversations.setPinned(input.id, input.pinned)),
    'conversations.delete': (input) => conversations.remove(input.id),
    'conversations.restore': (input) => updated(conversations.restore(input.id)),
    'conversations.search': (input) => ({ hits: conversations.search(input.query, input.limit) }),
  };
}
