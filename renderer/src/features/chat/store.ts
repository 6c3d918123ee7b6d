import { createStore, type StoreApi } from 'zustand/vanilla';
import type { OutputOf } from '../../../../main/api/contract.js';
import type { EventEnvelope } from '../../../../main/api/events.js';
import type { WireError } from '../../../../main/core/errors.js';
import type { ApiClient } from '../../api/client.js';
import { toWireError } from '../connection/store.js';

export type Conversation = OutputOf<'conversations.create'>;

export interface ChatState {
  conversations: Conversation[];
  loaded: boolean;
  loading: boolean;
  creating: boolean;
  selectedId: string | null;
  error: WireError | null;
  load(): Promise<void>;
  create(title?: string): Promise<Conversation | undefined>;
  select(id: string): Promise<void>;
  applyEvent(event: EventEnvelope): void;
  dismissError(): void;
}

/** Newest first, by last update, as `conversations.list` returns them. */
function upsert(list: Conversation[], row: Conversation): Conversation[] {
  const rest = list.filter((each) => each.id !== row.id);
  return [row, ...rest].sort((a, b) => b.updated_at.localeCompare(a.updated_at));
}

export interface ChatStoreOptions {
  /** Opens the conversation's thread (thread-store); select() resolves when it is shown. */
  onSelect?: (id: string | null) => Promise<void>;
}

/** The conversation list and which conversation is open; the open thread itself is thread-store.ts. */
export function createChatStore(client: ApiClient, options: ChatStoreOptions = {}): StoreApi<ChatState> {
  return createStore<ChatState>()((set, get) => ({
    conversations: [],
    loaded: false,
    loading: false,
    creating: false,
    selectedId: null,
    error: null,
    async load() {
      set({ loading: true });
      try {
        const { conversations } = await client.call('conversations.list', { limit: 200 });
        set({ conversations, loaded: true, loading: false });
      } catch (error) {
        set({ error: toWireError(error), loading: false });
      }
    },
    async create(title) {
      set({ creating: true });
      try {
        const row = await client.call('conversations.create', title ? { title } : {});
        set({ conversations: upsert(get().conversations, row), creating: false, error: null });
        await get().select(row.id);
        return row;
      } catch (error) {
        set({ error: toWireError(error), creating: false });
        return undefined;
      }
    },
    async select(id) {
      set({ selectedId: id });
      await options.onSelect?.(id);
    },
    applyEvent(event) {
      if (event.type === 'chat.turn_queued') {
        // A turn moves its conversation to the top; one started elsewhere (`fermix ask`) may be new to us.
        const known = get().conversations.find((each) => each.id === event.stream);
        if (!known) void get().load();
        else set({ conversations: upsert(get().conversations, { ...known, updated_at: event.time }) });
        return;
      }
      if (event.type !== 'conversation.created' && event.type !== 'conversation.updated') return;
      const payload = event.payload as { id: string; title: string };
      const existing = get().conversations.find((each) => each.id === payload.id);
      const row: Conversation = existing
        ? { ...existing, title: payload.title, updated_at: event.time }
        : { id: payload.id, title: payload.title, created_at: event.time, updated_at: event.time };
      set({ conversations: upsert(get().conversations, row) });
    },
    dismissError() {
      set({ error: null });
    },
  }));
}
