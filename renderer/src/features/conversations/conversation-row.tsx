import { useEffect, useRef, useState } from 'react';
import { useChat } from '../../app/model-context.js';
import { Icon } from '../../ui/icons.js';
import type { Conversation } from '../chat/store.js';
import { shortTime } from './group-conversations.js';
import { RowMenu } from './row-menu.js';

/**
 * One conversation: the row opens it; its ⋯ menu renames (inline), pins and deletes. The open button
 * comes first so "the first button of the list" is always a conversation.
 */
export function ConversationRow({ conversation, snippet, groupLabelId, onOpened }: { conversation: Conversation; snippet?: string | null; groupLabelId?: string; onOpened?: () => void }) {
  const selected = useChat((state) => state.selectedId === conversation.id);
  const select = useChat((state) => state.select);
  const rename = useChat((state) => state.rename);
  const [editing, setEditing] = useState(false);
  const [title, setTitle] = useState(conversation.title);
  const input = useRef<HTMLInputElement | null>(null);

  useEffect(() => {
    if (editing) input.current?.select();
  }, [editing]);

  const save = () => {
    setEditing(false);
    const next = title.trim();
    if (next && next !== conversation.title) void rename(conversation.id, next);
    else setTitle(conversation.title);
  };

  if (editing) {
    return (
      <li className="conversation-row editing">
        <input
          ref={input}
          className="rename-input"
          aria-label="Conversation title"
          value={title}
          maxLength={200}
          onChange={(event) => setTitle(event.target.value)}
          onBlur={save}
          onKeyDown={(event) => {
            if (event.key === 'Enter') save();
            else if (event.key === 'Escape') {
              setTitle(conversation.title);
              setEditing(false);
            }
          }}
        />
      </li>
    );
  }
  return (
    <li className="conversation-row" data-selected={selected || undefined}>
      <button
        type="button"
        className="conversation-item"
        aria-current={selected ? 'true' : undefined}
        aria-describedby={groupLabelId}
        onClick={() => {
          void select(conversation.id);
          onOpened?.();
        }}
        onDoubleClick={() => {
          setTitle(conversation.title);
          setEditing(true);
        }}
      >
        <span className="conversation-title">
          {conversation.pinned && <Icon name="pin" size={13} />}
          {conversation.title}
        </span>
        {snippet ? <span className="conversation-snippet">{snippet}</span> : null}
        <time className="conversation-time" dateTime={conversation.updated_at} title={new Date(conversation.updated_at).toLocaleString()}>
          {shortTime(conversation.updated_at)}
        </time>
      </button>
      <RowMenu
        conversation={conversation}
        onRename={() => {
          setTitle(conversation.title);
          setEditing(true);
        }}
      />
    </li>
  );
}
