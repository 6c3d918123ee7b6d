import { Fragment, useEffect, useId, useRef, useState } from 'react';
import './conversations.css';
import { useChat, useLayout } from '../../app/model-context.js';
import { Icon } from '../../ui/icons.js';
import { modKey } from '../palette/shortcuts.js';
import { ConversationRow } from './conversation-row.js';
import { groupConversations } from './group-conversations.js';

/**
 * The conversation list: New, search (titles and message text, FTS5 in the daemon), and the rows grouped
 * by Pinned / Today / Yesterday / Previous 7 days / Older. In the single-column layout it is a drawer.
 */
export function ConversationSidebar({ drawer = false }: { drawer?: boolean }) {
  const conversations = useChat((state) => state.conversations);
  const loaded = useChat((state) => state.loaded);
  const startDraft = useChat((state) => state.startDraft);
  const search = useChat((state) => state.search);
  const setSearch = useChat((state) => state.setSearch);
  const searchRequest = useLayout((state) => state.searchRequest);
  const toggleList = useLayout((state) => state.toggleList);
  const setDrawer = useLayout((state) => state.setDrawer);
  const [query, setQuery] = useState(search.query);
  const field = useRef<HTMLInputElement | null>(null);
  const groupId = useId();
  const closeDrawer = () => drawer && setDrawer(false);

  useEffect(() => {
    if (searchRequest > 0) field.current?.focus();
  }, [searchRequest]);

  // Search as you type, once typing pauses.
  useEffect(() => {
    const timer = setTimeout(() => void setSearch(query), query ? 150 : 0);
    return () => clearTimeout(timer);
  }, [query, setSearch]);

  const searching = query.trim() !== '';
  return (
    <aside className={drawer ? 'conversation-list drawer' : 'conversation-list'} aria-labelledby="conversations-title">
      <header className="pane-header">
        <div className="pane-title-row">
          <h2 id="conversations-title">Conversations</h2>
          <button
            type="button"
            className="icon-button"
            aria-label={drawer ? 'Close conversations' : 'Hide conversations'}
            title={drawer ? 'Close' : `Hide the list (${modKey()}+\\)`}
            onClick={() => (drawer ? setDrawer(false) : toggleList())}
          >
            <Icon name={drawer ? 'close' : 'chevron'} />
          </button>
        </div>
        <button
          type="button"
          className="primary new-button"
          aria-label="New conversation"
          title={`New conversation (${modKey()}+Shift+O)`}
          onClick={() => {
            void startDraft();
            closeDrawer();
          }}
        >
          <Icon name="plus" /> New conversation
        </button>
        <div className="search-field">
          <Icon name="search" />
          <input
            ref={field}
            type="search"
            value={query}
            placeholder="Search conversations"
            aria-label="Search conversations"
            title={`Search titles and messages (${modKey()}+Shift+F)`}
            onChange={(event) => setQuery(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Escape' && query) {
                event.stopPropagation();
                setQuery('');
              }
            }}
          />
        </div>
      </header>
      {searching ? (
        <>
          {search.hits !== null && search.query === query && search.hits.length === 0 && <p className="empty">No conversation mentions “{query.trim()}”.</p>}
          <ul aria-label="Search results" className="conversation-rows">
            {(search.hits ?? []).map((hit) => (
              <ConversationRow key={hit.conversation.id} conversation={hit.conversation} snippet={hit.snippet} onOpened={closeDrawer} />
            ))}
          </ul>
        </>
      ) : (
        <>
          {loaded && conversations.length === 0 && <p className="empty">No conversations yet. Your first message starts one.</p>}
          <ul aria-label="Conversations" className="conversation-rows">
            {/* A list may hold only list items (axe "list"): the date label is an item hidden from assistive tech,
                and each row of its group takes it as its description, so it is heard but never counted as a row. */}
            {groupConversations(conversations).map((group, index) => (
              <Fragment key={group.name}>
                <li aria-hidden="true" id={`${groupId}-${index}`} className="group-label">{group.name}</li>
                {group.items.map((conversation) => (
                  <ConversationRow key={conversation.id} conversation={conversation} groupLabelId={`${groupId}-${index}`} onOpened={closeDrawer} />
                ))}
              </Fragment>
            ))}
          </ul>
        </>
      )}
    </aside>
  );
}
