import type { Screen } from '../../app/navigation.js';
import { SCREENS } from '../../app/navigation.js';
import type { Conversation } from '../chat/store.js';
import { openSettingsSection, SETTINGS_SECTIONS } from '../settings/sections.js';

export interface PaletteItem {
  id: string;
  group: 'Actions' | 'Go to' | 'Conversations';
  label: string;
  hint?: string;
  run(): void;
}

export interface PaletteActions {
  navigate(screen: Screen, anchor?: string): void;
  newConversation(): void;
  search(): void;
  toggleList(): void;
  toggleNav(): void;
  shortcuts(): void;
  openConversation(id: string): void;
  /** Only offered while computer use is enabled. */
  computer: { paused: boolean; toggle(): void } | null;
}

/** Everything the palette offers for what was typed: every word must appear in the label (any order). */
export function paletteItems(query: string, conversations: Conversation[], actions: PaletteActions, mod: string): PaletteItem[] {
  const all: PaletteItem[] = [
    { id: 'new', group: 'Actions', label: 'New conversation', hint: `${mod}+Shift+O`, run: actions.newConversation },
    { id: 'search', group: 'Actions', label: 'Search conversations', hint: `${mod}+Shift+F`, run: actions.search },
    { id: 'list', group: 'Actions', label: 'Show or hide the conversation list', hint: `${mod}+\\`, run: actions.toggleList },
    { id: 'nav', group: 'Actions', label: 'Expand or collapse the navigation', hint: `${mod}+Shift+\\`, run: actions.toggleNav },
    { id: 'keys', group: 'Actions', label: 'Keyboard shortcuts', hint: '?', run: actions.shortcuts },
    ...(actions.computer ? [{ id: 'computer', group: 'Actions' as const, label: actions.computer.paused ? 'Resume computer use' : 'Pause computer use', run: actions.computer.toggle }] : []),
    ...SCREENS.map((screen) => ({ id: `go:${screen.id}`, group: 'Go to' as const, label: screen.label, run: () => actions.navigate(screen.id) })),
    // Settings shows one section at a time (features/settings/sections.ts): choose it, then go there.
    ...SETTINGS_SECTIONS.map((section) => ({ id: `go:settings-${section.id}`, group: 'Go to' as const, label: `Settings → ${section.id === 'models' ? 'Providers and models' : section.label}`, run: () => {
      openSettingsSection(section.id);
      actions.navigate('settings');
    } })),
  ];
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const matches = (label: string) => words.every((word) => label.toLowerCase().includes(word));
  const chats = conversations
    .filter((conversation) => matches(conversation.title))
    .slice(0, words.length ? 8 : 5)
    .map((conversation) => ({ id: `c:${conversation.id}`, group: 'Conversations' as const, label: conversation.title, run: () => actions.openConversation(conversation.id) }));
  const rest = all.filter((item) => matches(item.label));
  // With a query, conversations are usually what is looked for; without one, actions come first.
  return words.length ? [...chats, ...rest] : [...rest, ...chats];
}
