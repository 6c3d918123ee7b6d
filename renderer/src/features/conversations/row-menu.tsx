import { useEffect, useId, useRef, useState } from 'react';
import { useChat } from '../../app/model-context.js';
import { Icon } from '../../ui/icons.js';
import type { Conversation } from '../chat/store.js';

/** A conversation's actions behind one small button, so rows stay one line of text. */
export function RowMenu({ conversation, onRename }: { conversation: Conversation; onRename: () => void }) {
  const pin = useChat((state) => state.pin);
  const remove = useChat((state) => state.remove);
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement | null>(null);
  const menuId = useId();

  useEffect(() => {
    if (!open) return;
    const away = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', away);
    root.current?.querySelector<HTMLButtonElement>('[role="menuitem"]')?.focus();
    return () => document.removeEventListener('pointerdown', away);
  }, [open]);

  const act = (work: () => void) => () => {
    setOpen(false);
    work();
  };
  return (
    <div
      className="row-menu"
      ref={root}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && open) {
          event.stopPropagation();
          setOpen(false);
        }
      }}
    >
      <button
        type="button"
        className="icon-button row-menu-button"
        aria-label="Conversation actions"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        title="Rename, pin or delete"
        onClick={() => setOpen(!open)}
      >
        <Icon name="more" size={18} />
      </button>
      {open && (
        <div className="menu" role="menu" id={menuId} aria-label={`Actions for ${conversation.title}`}>
          <button type="button" role="menuitem" onClick={act(onRename)}>
            <Icon name="edit" /> Rename
          </button>
          <button type="button" role="menuitem" onClick={act(() => void pin(conversation.id, !conversation.pinned))}>
            <Icon name="pin" /> {conversation.pinned ? 'Unpin' : 'Pin'}
          </button>
          <button type="button" role="menuitem" className="danger" onClick={act(() => void remove(conversation.id))}>
            <Icon name="trash" /> Delete
          </button>
        </div>
      )}
    </div>
  );
}
