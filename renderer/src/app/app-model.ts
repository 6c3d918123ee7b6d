import type { StoreApi } from 'zustand/vanilla';
import { createClient, type ApiClient } from '../api/client.js';
import type { AppTransport } from '../api/transport.js';
import { createChatStore, type ChatState } from '../features/chat/store.js';
import { connectionPhase, createConnectionStore, type ConnectionState } from '../features/connection/store.js';

export interface AppModel {
  client: ApiClient;
  connection: StoreApi<ConnectionState>;
  chat: StoreApi<ChatState>;
  dispose(): void;
}

/**
 * The window's composition root: one client, one store per feature, and the wiring between them.
 * Stores are created here rather than at module level so a test (or a second window) gets its own.
 */
export function createAppModel(transport: AppTransport): AppModel {
  const client = createClient(transport);
  const connection = createConnectionStore(client, transport);
  const chat = createChatStore(client);

  const stopEvents = client.subscribe((event) => chat.getState().applyEvent(event));
  const stopResync = transport.onResync(() => void chat.getState().load());
  // Feature data loads once the daemon has answered, so an unauthorized window shows one clear message
  // instead of one error per feature.
  const stopLoadOnConnect = connection.subscribe((state, previous) => {
    if (connectionPhase(state) === 'connected' && connectionPhase(previous) !== 'connected' && !chat.getState().loaded) {
      void chat.getState().load();
    }
  });
  void connection.getState().refresh();

  return {
    client,
    connection,
    chat,
    dispose() {
      stopEvents();
      stopResync();
      stopLoadOnConnect();
      connection.dispose();
      transport.close();
    },
  };
}
