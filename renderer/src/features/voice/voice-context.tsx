/**
 * VoiceProvider: mounts once around the app (main.tsx), with the store from app-model.ts. Besides handing the
 * store to VoiceButton and VoiceSettings, it owns the in-window push-to-talk key: hold Ctrl+Shift+Space
 * (Cmd+Shift+Space on a Mac) while the window is focused — in a browser there is no global shortcut, and
 * in the desktop app the same keys are the global shortcut, which the window never sees.
 */
import { createContext, useContext, useEffect, type ReactNode } from 'react';
import { readBridge } from '../../api/bridge.js';
import type { VoiceStore } from './store.js';

const VoiceContext = createContext<VoiceStore | null>(null);

export const PUSH_TO_TALK_KEYS = 'Control+Shift+Space';

/** Where the shortcut works: the desktop app registers it globally (main/shell/shortcuts.ts); a browser tab cannot. */
export function shortcutScope(): string {
  return readBridge(globalThis) ? 'works from any application' : 'while this window is focused; from any application in the desktop app';
}

export function isPushToTalkKey(event: Pick<KeyboardEvent, 'code' | 'shiftKey' | 'ctrlKey' | 'metaKey' | 'altKey'>): boolean {
  return event.code === 'Space' && event.shiftKey && (event.ctrlKey || event.metaKey) && !event.altKey;
}

export function VoiceProvider({ store, children }: { store: VoiceStore; children: ReactNode }) {
  useEffect(() => {
    let held = false;
    const down = (event: KeyboardEvent) => {
      if (isPushToTalkKey(event)) {
        event.preventDefault();
        if (!event.repeat && !held) {
          held = true;
          store.getState().press('key');
        }
      } else if (event.key === 'Escape' && store.getState().phase === 'recording') {
        event.preventDefault(); // consumed: the window-wide Escape does not also stop the turn
        store.getState().cancel();
      }
    };
    const up = (event: KeyboardEvent) => {
      if (!held) return;
      if (event.code === 'Space' || event.key === 'Shift' || event.key === 'Control' || event.key === 'Meta') {
        held = false;
        store.getState().release('key');
      }
    };
    const blur = () => {
      if (held) {
        held = false;
        store.getState().release('key');
      }
    };
    window.addEventListener('keydown', down);
    window.addEventListener('keyup', up);
    window.addEventListener('blur', blur);
    return () => {
      window.removeEventListener('keydown', down);
      window.removeEventListener('keyup', up);
      window.removeEventListener('blur', blur);
    };
  }, [store]);
  return <VoiceContext.Provider value={store}>{children}</VoiceContext.Provider>;
}

/** The voice store, or null when no VoiceProvider is mounted (VoiceButton then renders nothing). */
export function useVoiceStore(): VoiceStore | null {
  return useContext(VoiceContext);
}
