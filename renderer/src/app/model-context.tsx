import { createContext, useContext, type ReactNode } from 'react';
import { useStore } from 'zustand';
import type { ChatState } from '../features/chat/store.js';
import type { ConnectionState } from '../features/connection/store.js';
import type { AppModel } from './app-model.js';

const ModelContext = createContext<AppModel | null>(null);

export function ModelProvider({ model, children }: { model: AppModel; children: ReactNode }) {
  return <ModelContext.Provider value={model}>{children}</ModelContext.Provider>;
}

function useModel(): AppModel {
  const model = useContext(ModelContext);
  if (!model) throw new Error('ModelProvider is missing above this component.');
  return model;
}

export function useConnection<T>(selector: (state: ConnectionState) => T): T {
  return useStore(useModel().connection, selector);
}

export function useChat<T>(selector: (state: ChatState) => T): T {
  return useStore(useModel().chat, selector);
}
