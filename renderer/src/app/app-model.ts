import type { StoreApi } from 'zustand/vanilla';
import { createClient, type ApiClient } from '../api/client.js';
import type { AppTransport } from '../api/transport.js';
import { createAuditStore, type AuditState } from '../features/audit/store.js';
import { createAttachmentsStore, type AttachmentsState } from '../features/chat/attachments/attachment-store.js';
import { createChatStore, type ChatState } from '../features/chat/store.js';
import { createThreadStore, type ThreadState } from '../features/chat/thread-store.js';
import { connectionPhase, createConnectionStore, type ConnectionState } from '../features/connection/store.js';
import { createControlsStore, type ControlsState } from '../features/controls/store.js';
import { createProvidersStore, type ProvidersState } from '../features/providers/store.js';
import { createSettingsStore, type SettingsState } from '../features/settings/store.js';
import { createVoiceStore, type VoiceStore } from '../features/voice/store.js';
import { createLayoutStore, type LayoutState } from './layout-store.js';

export interface AppModel {
  client: ApiClient;
  connection: StoreApi<ConnectionState>;
  chat: StoreApi<ChatState>;
  thread: StoreApi<ThreadState>;
  /** The composer's pending files and the bytes of stored attachments (attachments.get). */
  attachments: StoreApi<AttachmentsState>;
  providers: StoreApi<ProvidersState>;
  controls: StoreApi<ControlsState>;
  settings: StoreApi<SettingsState>;
  audit: StoreApi<AuditState>;
  /** Which panes are open, the palette and the shortcut sheet. */
  layout: StoreApi<LayoutState>;
  /** Owned by the voice feature; mounted with VoiceProvider in main.tsx. */
  voice: VoiceStore;
  dispose(): void;
}

/** The open conversation survives a reload of this tab (sessionStorage: per tab, gone with it). */
const SELECTED_KEY = 'fermix.conversation';

function sessionStore(): Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    return null;
  }
}

/**
 * The window's composition root: one client, one store per feature, and the wiring between them.
 * Stores are created here rather than at module level so a test (or a second window) gets its own.
 */
export function createAppModel(transport: AppTransport): AppModel {
  const client = createClient(transport);
  const connection = createConnectionStore(client, transport);
  const controls = createControlsStore(client);
  const providers = createProvidersStore(client);
  const settings = createSettingsStore(client);
  const audit = createAuditStore(client);
  const voice = createVoiceStore(client);
  const attachments = createAttachmentsStore(client);
  const layout = createLayoutStore();
  // The thread and the list need each other (a first message creates a conversation; selecting one opens
  // its thread): the list is created first and the thread reaches it through this late-bound reference.
  const late: { chat?: StoreApi<ChatState> } = {};
  const thread = createThreadStore({
    client,
    async createConversation(title) {
      // Called with the first message's words: a provisional title the daemon may improve once.
      const row = await late.chat!.getState().create(title, { auto: true });
      return row?.id;
    },
    startDraft: (title) => late.chat!.getState().startDraft(title),
    pauseComputer: () => controls.getState().pause(),
    resumeComputer: () => controls.getState().resume(),
  });
  const chat = createChatStore(client, { onSelect: (id) => thread.getState().open(id) });
  late.chat = chat;

  // The voice feature reads its endpoint status itself; a transcription edit in Settings makes it look again.
  const stopVoiceRefresh = settings.subscribe((state, previous) => {
    const before = previous.settings?.transcription;
    const after = state.settings?.transcription;
    if (before && after && (before.base_url !== after.base_url || before.model !== after.model || before.api_key_ref !== after.api_key_ref)) void voice.getState().refreshStatus();
  });
  const storage = sessionStore();
  const stopRemember = chat.subscribe((state, previous) => {
    if (state.selectedId === previous.selectedId) return;
    if (state.selectedId) storage?.setItem(SELECTED_KEY, state.selectedId);
    else storage?.removeItem(SELECTED_KEY);
  });
  const restoreSelection = () => {
    const remembered = storage?.getItem(SELECTED_KEY);
    const state = chat.getState();
    if (remembered && !state.selectedId && state.conversations.some((each) => each.id === remembered)) void state.select(remembered);
  };

  const stopEvents = client.subscribe((event) => {
    chat.getState().applyEvent(event);
    thread.getState().applyEvent(event);
    controls.getState().applyEvent(event);
  });
  const stopResync = transport.onResync(() => {
    void chat.getState().load();
    void thread.getState().reload();
    void providers.getState().load();
    // Events were missed while disconnected: the switch may have flipped meanwhile.
    void controls.getState().refresh();
  });
  // Feature data loads once the daemon has answered, so an unauthorized window shows one clear message
  // instead of one error per feature.
  const stopLoadOnConnect = connection.subscribe((state, previous) => {
    if (connectionPhase(state) === 'connected' && connectionPhase(previous) !== 'connected') {
      if (!chat.getState().loaded) void chat.getState().load().then(restoreSelection);
      void providers.getState().load();
      void controls.getState().refresh();
    }
  });
  void connection.getState().refresh();

  return {
    client,
    connection,
    chat,
    thread,
    attachments,
    providers,
    controls,
    settings,
    audit,
    layout,
    voice,
    dispose() {
      stopRemember();
      stopVoiceRefresh();
      voice.getState().dispose();
      stopEvents();
      stopResync();
      stopLoadOnConnect();
      connection.dispose();
      transport.close();
    },
  };
}
