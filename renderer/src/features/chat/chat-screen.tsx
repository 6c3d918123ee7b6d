import { ErrorNotice } from '../../app/error-notice.js';
import { useChat, useLayout } from '../../app/model-context.js';
import { NARROW, useMediaQuery } from '../../ui/use-media-query.js';
import { ConversationSidebar } from '../conversations/conversation-sidebar.js';
import { ConversationView } from './conversation-view.js';

/**
 * List | conversation side by side from 900 px (the list can be hidden), one column below it with the
 * list in a drawer, so the message box keeps its width (never under 320 px).
 */
export function ChatScreen() {
  const error = useChat((state) => state.error);
  const dismissError = useChat((state) => state.dismissError);
  const narrow = useMediaQuery(NARROW);
  const listCollapsed = useLayout((state) => state.listCollapsed);
  const drawerOpen = useLayout((state) => state.drawerOpen);
  const setDrawer = useLayout((state) => state.setDrawer);
  const toggleList = useLayout((state) => state.toggleList);
  const showList = !narrow && !listCollapsed;
  return (
    <div className="chat-screen" data-list={showList ? 'shown' : 'hidden'}>
      {showList && <ConversationSidebar />}
      {narrow && drawerOpen && (
        <div className="drawer-backdrop" onPointerDown={(event) => event.target === event.currentTarget && setDrawer(false)} onKeyDown={(event) => event.key === 'Escape' && setDrawer(false)}>
          <ConversationSidebar drawer />
        </div>
      )}
      <section className="conversation-pane" aria-label="Conversation">
        {error && <ErrorNotice error={error} onDismiss={dismissError} />}
        <ConversationView listHidden={!showList} onShowList={() => (narrow ? setDrawer(true) : toggleList())} />
      </section>
    </div>
  );
}
