import { useEffect } from 'react';
import { matchShortcut } from '../features/palette/shortcuts.js';
import { NARROW } from '../ui/use-media-query.js';
import { useChatStore, useLayoutStore } from './model-context.js';
import type { Screen } from './navigation.js';

function typing(target: EventTarget | null): boolean {
  const element = target as HTMLElement | null;
  return !!element && (element.tagName === 'INPUT' || element.tagName === 'TEXTAREA' || element.tagName === 'SELECT' || element.isContentEditable);
}

/** The window's global keys (features/palette/shortcuts.ts lists them); `?` only outside text fields. */
export function useShortcuts(navigate: (screen: Screen) => void): void {
  const layout = useLayoutStore();
  const chat = useChatStore();
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const shortcut = matchShortcut(event);
      if (!shortcut || event.defaultPrevented) return;
      if (shortcut.action === 'shortcuts' && typing(event.target)) return;
      event.preventDefault();
      const state = layout.getState();
      const narrow = typeof matchMedia === 'function' && matchMedia(NARROW).matches;
      switch (shortcut.action) {
        case 'palette':
          return state.overlay === 'palette' ? state.close() : state.open('palette');
        case 'shortcuts':
          return state.overlay === 'shortcuts' ? state.close() : state.open('shortcuts');
        case 'new':
          state.close();
          navigate('chat');
          return void chat.getState().startDraft();
        case 'search':
          state.close();
          navigate('chat');
          if (narrow) state.setDrawer(true);
          return state.requestSearch();
        case 'toggle-list':
          return narrow ? state.setDrawer(!state.drawerOpen) : state.toggleList();
        case 'toggle-nav':
          return state.toggleNav();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [layout, chat, navigate]);
}
