import { useId, useMemo, useState } from 'react';
import { useChat, useControls, useLayout } from '../../app/model-context.js';
import type { Screen } from '../../app/navigation.js';
import { NARROW } from '../../ui/use-media-query.js';
import { paletteItems } from './palette-items.js';
import { modKey } from './shortcuts.js';

/** Ctrl/Cmd+K: conversations, screens and settings sections, and the window's actions, by typing. */
export function CommandPalette({ navigate }: { navigate: (screen: Screen) => void }) {
  const close = useLayout((state) => state.close);
  const open = useLayout((state) => state.open);
  const toggleList = useLayout((state) => state.toggleList);
  const toggleNav = useLayout((state) => state.toggleNav);
  const setDrawer = useLayout((state) => state.setDrawer);
  const requestSearch = useLayout((state) => state.requestSearch);
  const conversations = useChat((state) => state.conversations);
  const startDraft = useChat((state) => state.startDraft);
  const select = useChat((state) => state.select);
  const computer = useControls((state) => state.computer);
  const pause = useControls((state) => state.pause);
  const resume = useControls((state) => state.resume);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const listId = useId();
  const narrow = () => typeof matchMedia === 'function' && matchMedia(NARROW).matches;

  const items = useMemo(
    () =>
      paletteItems(query, conversations, {
        navigate: (screen, anchor) => {
          navigate(screen);
          if (anchor) setTimeout(() => document.getElementById(anchor)?.scrollIntoView({ block: 'start' }), 50);
        },
        newConversation: () => {
          navigate('chat');
          void startDraft();
        },
        search: () => {
          navigate('chat');
          if (narrow()) setDrawer(true);
          requestSearch();
        },
        toggleList: () => (narrow() ? setDrawer(true) : toggleList()),
        toggleNav,
        shortcuts: () => open('shortcuts'),
        openConversation: (id) => {
          navigate('chat');
          void select(id);
        },
        computer: computer?.enabled ? { paused: computer.paused, toggle: () => void (computer.paused ? resume() : pause()).catch(() => undefined) } : null,
      }, modKey()),
    [query, conversations, navigate, startDraft, setDrawer, requestSearch, toggleList, toggleNav, open, select, computer, pause, resume],
  );
  const current = Math.min(active, Math.max(items.length - 1, 0));
  const run = (index: number) => {
    const item = items[index];
    if (!item) return;
    close();
    item.run();
  };

  return (
    <div className="overlay" onPointerDown={(event) => event.target === event.currentTarget && close()}>
      <div className="palette" role="dialog" aria-modal="true" aria-label="Command palette">
        <input
          autoFocus
          className="palette-input"
          role="combobox"
          aria-expanded="true"
          aria-controls={listId}
          aria-activedescendant={items[current] ? `${listId}-${current}` : undefined}
          aria-label="Type a command or a conversation title"
          placeholder="Type a command or a conversation title…"
          value={query}
          onChange={(event) => {
            setQuery(event.target.value);
            setActive(0);
          }}
          onKeyDown={(event) => {
            if (event.key === 'ArrowDown') setActive((current + 1) % Math.max(items.length, 1));
            else if (event.key === 'ArrowUp') setActive((current - 1 + items.length) % Math.max(items.length, 1));
            else if (event.key === 'Enter') run(current);
            else if (event.key === 'Escape') close();
            else return;
            event.preventDefault();
          }}
        />
        <ul className="palette-list" role="listbox" id={listId} aria-label="Commands">
          {items.length === 0 && <li className="empty" role="presentation">Nothing matches “{query}”.</li>}
          {items.map((item, index) => (
            <li
              key={item.id}
              id={`${listId}-${index}`}
              role="option"
              aria-selected={index === current}
              className="palette-item"
              onPointerMove={() => setActive(index)}
              onClick={() => run(index)}
            >
              <span className="palette-group">{item.group}</span>
              <span className="palette-label">{item.label}</span>
              {item.hint && <kbd>{item.hint}</kbd>}
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
