import { createStore, type StoreApi } from 'zustand/vanilla';
import type { OutputOf } from '../../../../main/api/contract.js';
import type { EventEnvelope } from '../../../../main/api/events.js';
import type { WireError } from '../../../../main/core/errors.js';
import type { ApiClient } from '../../api/client.js';
import { toWireError } from '../connection/store.js';

export type Conversation = OutputOf<'conversations.create'>;
export type SearchHit = OutputOf<'conversations.search'>['hits'][number];

export interface ChatState {
  conversations: Conversation[];
  loaded: boolean;
  loading: boolean;
  creating: boolean;
  selectedId: string | null;
  /** `/new Title` with no message yet: the title the first message's conversation gets. */
  draftTitle: string | null;
  error: WireError | null;
  /** The last deletion, while it can be undone (the toast's Undo). */
  deleted: Conversation | null;
  search: { query: string; hits: SearchHit[] | null; error: WireError | null };
  load(): Promise<void>;
  /** Called with the first message's words (auto) just before it is sent, or with a typed title. */
  create(title?: string, options?: { auto?: boolean }): Promise<Conversation | undefined>;
  /** "New conversation": nothing is stored until the first message is sent. */
  startDraft(title?: string): Promise<void>;
  select(id: string): Promise<void>;
  rename(id: string, title: string): Promise<void>;
  pin(id: string, pinned: boolean): Promise<void>;
  remove(id: string): Promise<void>;
  undoRemove(): Promise<void>;
  dismissDeleted(): void;
  setSearch(query: string): Promise<void>;
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
  let searchToken = 0;
  return createStore<ChatState>()((set, get) => {
    const replace = (row: Conversation) => set({ conversations: get().conversations.map((each) => (each.id === row.id ? row : each)) });
    const attempt = async (work: () => Promise<void>) => {
      try {
        await work();
      } catch (error) {
        set({ error: toWireError(error) });
      }
    };
    return {
      conversations: [],
      loaded: false,
      loading: false,
      creating: false,
      selectedId: null,
      draftTitle: null,
      error: null,
      deleted: null,
      search: { query: '', hits: null, error: null },
      async load() {
        set({ loading: true });
        try {
          const { conversations } = await client.call('conversations.list', { limit: 200 });
          set({ conversations, loaded: true, loading: false });
        } catch (error) {
          set({ error: toWireError(error), loading: false });
        }
      },
      async create(title, createOptions = {}) {
        // A title typed with /new wins over the first message's words.
        const draft = get().draftTitle;
        const input = draft ? { title: draft } : title ? { title, ...(createOptions.auto ? { auto_title: true } : {}) } : {};
        set({ creating: true });
        try {
          const row = await client.call('conversations.create', input);
          set({ conversations: upsert(get().conversations, row), creating: false, error: null, draftTitle: null });
          await get().select(row.id);
          return row;
        } catch (error) {
          set({ error: toWireError(error), creating: false });
          return undefined;
        }
      },
      async startDraft(title) {
        set({ selectedId: null, draftTitle: title?.trim() || null });
        await options.onSelect?.(null);
      },
      async select(id) {
        set({ selectedId: id, draftTitle: null });
        await options.onSelect?.(id);
      },
      rename: (id, title) => attempt(async () => replace(await client.call('conversations.rename', { id, title }))),
      pin: (id, pinned) => attempt(async () => replace(await client.call('conversations.pin', { id, pinned }))),
      remove: (id) =>
        attempt(async () => {
          const row = get().conversations.find((each) => each.id === id) ?? null;
          await client.call('conversations.delete', { id });
          const { search } = get();
          set({
            conversations: get().conversations.filter((each) => each.id !== id),
            deleted: row,
            search: search.hits ? { ...search, hits: search.hits.filter((hit) => hit.conversation.id !== id) } : search,
          });
          if (get().selectedId === id) await get().startDraft();
        }),
      undoRemove: () =>
        attempt(async () => {
          const row = get().deleted;
          if (!row) return;
          set({ deleted: null });
          const restored = await client.call('conversations.restore', { id: row.id });
          set({ conversations: upsert(get().conversations, restored) });
        }),
      dismissDeleted: () => set({ deleted: null }),
      async setSearch(query) {
        const token = ++searchToken;
        if (!query.trim()) {
          set({ search: { query, hits: null, error: null } });
          return;
        }
        set({ search: { ...get().search, query } });
        try {
          const { hits } = await client.call('conversations.search', { query, limit: 50 });
          if (token === searchToken) set({ search: { query, hits, error: null } });
        } catch (error) {
          if (token === searchToken) set({ search: { query, hits: [], error: toWireError(error) } });
        }
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
        if (existing) {
          // A title change is not activity: the row keeps its place and its date group.
          replace({ ...existing, title: payload.title });
          return;
        }
        // Updated but unknown: restored or retitled elsewhere; the list is read again for its true fields.
        if (event.type === 'conversation.updated') return void get().load();
        set({ conversations: upsert(get().conversations, { id: payload.id, title: payload.title, created_at: event.time, updated_at: event.time, pinned: false, title_source: 'user' }) });
      },
      dismissError() {
        set({ error: null });
      },
    };
  });
}
