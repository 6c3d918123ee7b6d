/** The window's keyboard shortcuts: one table for the handler (app/use-shortcuts.ts) and the sheet (?). */
export const isMac = (): boolean => typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);

/** How the modifier is written for this person: ⌘ on a Mac, Ctrl elsewhere. */
export const modKey = (): string => (isMac() ? '⌘' : 'Ctrl');

export type ShortcutAction = 'palette' | 'new' | 'search' | 'toggle-list' | 'toggle-nav' | 'shortcuts';

export interface Shortcut {
  action: ShortcutAction;
  keys: string;
  label: string;
  /** Ctrl (Cmd on a Mac) is held. */
  mod: boolean;
  shift?: boolean;
  /** KeyboardEvent.key, lower-cased. */
  key: string;
}

export const SHORTCUTS: Shortcut[] = [
  { action: 'palette', keys: 'K', label: 'Command palette: conversations, settings, actions', mod: true, key: 'k' },
  { action: 'new', keys: 'Shift+O', label: 'New conversation', mod: true, shift: true, key: 'o' },
  { action: 'search', keys: 'Shift+F', label: 'Search conversations', mod: true, shift: true, key: 'f' },
  { action: 'toggle-list', keys: '\\', label: 'Show or hide the conversation list', mod: true, key: '\\' },
  { action: 'toggle-nav', keys: 'Shift+\\', label: 'Expand or collapse the navigation', mod: true, shift: true, key: '|' },
  { action: 'shortcuts', keys: '?', label: 'This list of shortcuts (outside a text field)', mod: false, key: '?' },
];

/** The composer's own keys, listed on the sheet too. */
export const COMPOSER_KEYS: [string, string][] = [
  ['Enter', 'Send the message'],
  ['Shift+Enter', 'New line'],
  ['Esc', 'Stop the running turn (from anywhere in the window)'],
  ['/', 'Commands (/help lists them)'],
];

export function matchShortcut(event: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey'>): Shortcut | undefined {
  if (event.altKey) return undefined;
  const mod = isMac() ? event.metaKey : event.ctrlKey;
  const key = event.key.toLowerCase();
  return SHORTCUTS.find((each) => {
    if (each.mod !== mod) return false;
    if (each.action === 'shortcuts') return key === '?';
    // Shift+\ arrives as "|" on most layouts, as "\" on some.
    if (each.action === 'toggle-nav') return event.shiftKey && (key === '|' || key === '\\');
    return key === each.key && Boolean(each.shift) === event.shiftKey;
  });
}
