import { useEffect } from 'react';
import { matchShortcut } from '../features/palette/shortcuts.js';
import { NARROW } from '../ui/use-media-query.js';
import { activeTurn } from '../features/chat/thread/thread-types.js';
import { useChatStore, useLayoutStore, useThreadStore } from './model-context.js';
import type { Screen } from './navigation.js';

function typing(target: EventTarget | null): boolean {
  const element = target as HTMLElement | null;
  return !!element && (element.tagName === 'INPUT' || element.tagName === 'TEXTAREA' || element.tagName === 'SELECT' || element.isContentEditable);
}

/**
 * Escape from anywhere stops the running turn — unless something nearer took it first (a field, menu,
 * popover or dialog closes on Escape and marks the event handled), an overlay is open, or the focus is in
 * a dialog or menu that closes on its own.
 */
function escapeStopsTurn(event: KeyboardEvent): boolean {
  if (event.key !== 'Escape' || event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || event.shiftKey) return false;
  const target = event.target as HTMLElement | null;
  if (target && typeof target.closest === 'function' && target.closest('[role="dialog"], [role="menu"], [role="listbox"], [aria-modal="true"]')) return false;
  return true;
}

/** The window's global keys (features/palette/shortcuts.ts lists them); `?` only outside text fields. */
export function useShortcuts(navigate: (screen: Screen) => void): void {
  const layout = useLayoutStore();
  const chat = useChatStore();
  const thread = useThreadStore();
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (escapeStopsTurn(event) && layout.getState().overlay === null && activeTurn(thread.getState().thread)) {
        // Decided after every other keydown listener has run (voice, popovers): one that consumed the
        // Escape marks it handled, and then the turn goes on.
        setTimeout(() => {
          if (!event.defaultPrevented && activeTurn(thread.getState().thread)) void thread.getState().stop();
        }, 0);
        return;
      }
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
  }, [layout, chat, thread, navigate]);
}
