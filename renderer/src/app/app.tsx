import { useCallback, useState } from 'react';
import '../features/palette/palette.css';
import { AuditScreen } from '../features/audit/audit-screen.js';
import { ChatScreen } from '../features/chat/chat-screen.js';
import { StatusBar } from '../features/connection/status-bar.js';
import { UnauthorizedScreen } from '../features/connection/unauthorized-screen.js';
import { connectionPhase } from '../features/connection/store.js';
import { CommandPalette } from '../features/palette/command-palette.js';
import { ShortcutSheet } from '../features/palette/shortcut-sheet.js';
import { PluginsScreen } from '../features/plugins/plugins-screen.js';
import { JobsScreen } from '../features/jobs/jobs-screen.js';
import { MemoryScreen } from '../features/memory/memory-screen.js';
import { SkillsScreen } from '../features/skills/skills-screen.js';
import { SettingsScreen } from '../features/settings/settings-screen.js';
import { UndoToast } from '../ui/undo-toast.js';
import { useChat, useConnection, useLayout } from './model-context.js';
import { Navigation, type Screen } from './navigation.js';
import { NavigateContext } from './navigation-context.js';
import { ErrorBoundary } from './error-boundary.js';
import { useShortcuts } from './use-shortcuts.js';

export function App() {
  const [screen, setScreen] = useState<Screen>('chat');
  const navigate = useCallback((next: Screen) => setScreen(next), []);
  const unauthorized = useConnection((state) => connectionPhase(state) === 'unauthorized');
  const navCollapsed = useLayout((state) => state.navCollapsed);
  const overlay = useLayout((state) => state.overlay);
  const deleted = useChat((state) => state.deleted);
  const undoRemove = useChat((state) => state.undoRemove);
  const dismissDeleted = useChat((state) => state.dismissDeleted);
  useShortcuts(navigate);
  return (
    <NavigateContext.Provider value={navigate}>
      <div className="app" data-nav={navCollapsed ? 'collapsed' : 'open'}>
        <Navigation current={screen} onSelect={navigate} />
        <main className="content">
          <ErrorBoundary resetKey={screen}>{unauthorized ? <UnauthorizedScreen /> : renderScreen(screen)}</ErrorBoundary>
        </main>
        <StatusBar />
        {!unauthorized && overlay === 'palette' && <CommandPalette navigate={navigate} />}
        {overlay === 'shortcuts' && <ShortcutSheet />}
        {deleted && <UndoToast text={`Deleted “${deleted.title}”.`} onUndo={() => void undoRemove()} onDismiss={dismissDeleted} />}
      </div>
    </NavigateContext.Provider>
  );
}

function renderScreen(screen: Screen) {
  switch (screen) {
    case 'chat':
      return <ChatScreen />;
    case 'jobs':
      return <JobsScreen />;
    case 'skills':
      return <SkillsScreen />;
    case 'memory':
      return <MemoryScreen />;
    case 'plugins':
      return <PluginsScreen />;
    case 'settings':
      return <SettingsScreen />;
    case 'audit':
      return <AuditScreen />;
  }
}
