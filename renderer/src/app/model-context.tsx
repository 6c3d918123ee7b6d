import { createContext, useContext, type ReactNode } from 'react';
import { useStore } from 'zustand';
import type { AuditState } from '../features/audit/store.js';
import type { AttachmentsState } from '../features/chat/attachments/attachment-store.js';
import type { ChatState } from '../features/chat/store.js';
import type { ThreadState } from '../features/chat/thread-store.js';
import type { ConnectionState } from '../features/connection/store.js';
import type { ControlsState } from '../features/controls/store.js';
import type { ProvidersState } from '../features/providers/store.js';
import type { SettingsState } from '../features/settings/store.js';
import type { AppModel } from './app-model.js';
import type { LayoutState } from './layout-store.js';

const ModelContext = createContext<AppModel | null>(null);

export function ModelProvider({ model, children }: { model: AppModel; children: ReactNode }) {
  return <ModelContext.Provider value={model}>{children}</ModelContext.Provider>;
}

function useModel(): AppModel {
  const model = useContext(ModelContext);
  if (!model) throw new Error('ModelProvider is missing above this component.');
  return model;
}

// One hook per feature store. Selectors must return stable values (a field, a primitive), never a new object.
export function useConnection<T>(selector: (state: ConnectionState) => T): T {
  return useStore(useModel().connection, selector);
}
export function useChat<T>(selector: (state: ChatState) => T): T {
  return useStore(useModel().chat, selector);
}
export function useThread<T>(selector: (state: ThreadState) => T): T {
  return useStore(useModel().thread, selector);
}
export function useAttachments<T>(selector: (state: AttachmentsState) => T): T {
  return useStore(useModel().attachments, selector);
}
export function useProviders<T>(selector: (state: ProvidersState) => T): T {
  return useStore(useModel().providers, selector);
}
export function useControls<T>(selector: (state: ControlsState) => T): T {
  return useStore(useModel().controls, selector);
}
export function useSettings<T>(selector: (state: SettingsState) => T): T {
  return useStore(useModel().settings, selector);
}
export function useAudit<T>(selector: (state: AuditState) => T): T {
  return useStore(useModel().audit, selector);
}
export function useLayout<T>(selector: (state: LayoutState) => T): T {
  return useStore(useModel().layout, selector);
}
/** The layout store itself, for event handlers that act without re-rendering (the shortcuts). */
export function useLayoutStore() {
  return useModel().layout;
}
/** The open conversation's thread store itself, for the window-wide Escape (the shortcuts). */
export function useThreadStore() {
  return useModel().thread;
}
/** The conversation list store itself, for the palette's and the shortcuts' actions. */
export function useChatStore() {
  return useModel().chat;
}
/** The API client, for feature screens that keep their own store while they are open (Plugins, MCP). */
export function useApiClient() {
  return useModel().client;
}
