import { useEffect } from 'react';
import { useStore } from 'zustand';
import type { StoreApi } from 'zustand/vanilla';
import { useApiClient } from '../../app/model-context.js';
import type { CatalogEntry, PluginsState } from './store.js';

/**
 * A hosted plugin's connection comes up (or fails) after the action that started it has answered:
 * while its live state is `connecting`, re-read that one plugin's status every second so the badge
 * moves on to Ready, Contract changed or Token rejected by itself.
 */
export function useHostedLive(entry: CatalogEntry, store: StoreApi<PluginsState>): void {
  const client = useApiClient();
  const live = useStore(store, (s) => s.states[entry.name]?.live);
  const hosted = entry.runtime_kind === 'remote_mcp';
  useEffect(() => {
    if (!hosted || live !== 'connecting') return;
    const timer = setInterval(() => {
      void client.call('plugins.status', { name: entry.name }).then(({ plugins }) => {
        const fresh = plugins.find((each) => each.name === entry.name);
        if (fresh) store.setState((s) => ({ states: { ...s.states, [entry.name]: fresh } }));
      }, () => {});
    }, 1_000);
    return () => clearInterval(timer);
  }, [client, store, entry.name, hosted, live]);
}
