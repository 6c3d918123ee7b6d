import { createStore, type StoreApi } from 'zustand/vanilla';

/** Which panes are open. The two collapse choices are remembered across launches (localStorage). */
export interface LayoutState {
  navCollapsed: boolean;
  listCollapsed: boolean;
  /** The conversation drawer of the single-column layout (under 900 px); never remembered. */
  drawerOpen: boolean;
  overlay: 'palette' | 'shortcuts' | null;
  /** Bumped to ask the conversation list to focus its search field (Ctrl/Cmd+Shift+F, the palette). */
  searchRequest: number;
  toggleNav(): void;
  toggleList(): void;
  setDrawer(open: boolean): void;
  open(overlay: 'palette' | 'shortcuts'): void;
  close(): void;
  requestSearch(): void;
}

const KEY = 'fermix.layout';

function storage(): Pick<Storage, 'getItem' | 'setItem'> | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

function remembered(): { navCollapsed: boolean; listCollapsed: boolean } {
  try {
    const saved = JSON.parse(storage()?.getItem(KEY) ?? '{}') as Record<string, unknown>;
    return { navCollapsed: saved.navCollapsed === true, listCollapsed: saved.listCollapsed === true };
  } catch {
    return { navCollapsed: false, listCollapsed: false };
  }
}

export function createLayoutStore(): StoreApi<LayoutState> {
  const store = createStore<LayoutState>()((set, get) => ({
    ...remembered(),
    drawerOpen: false,
    overlay: null,
    searchRequest: 0,
    toggleNav: () => set({ navCollapsed: !get().navCollapsed }),
    toggleList: () => set({ listCollapsed: !get().listCollapsed }),
    setDrawer: (open) => set({ drawerOpen: open }),
    open: (overlay) => set({ overlay }),
    close: () => set({ overlay: null }),
    requestSearch: () => set({ searchRequest: get().searchRequest + 1, listCollapsed: false }),
  }));
  store.subscribe((state, previous) => {
    if (state.navCollapsed === previous.navCollapsed && state.listCollapsed === previous.listCollapsed) return;
    storage()?.setItem(KEY, JSON.stringify({ navCollapsed: state.navCollapsed, listCollapsed: state.listCollapsed }));
  });
  return store;
}
