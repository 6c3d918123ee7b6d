import { useState } from 'react';
import { AuditScreen } from '../features/audit/audit-screen.js';
import { ChatScreen } from '../features/chat/chat-screen.js';
import { StatusBar } from '../features/connection/status-bar.js';
import { UnauthorizedScreen } from '../features/connection/unauthorized-screen.js';
import { connectionPhase } from '../features/connection/store.js';
import { PluginsScreen } from '../features/plugins/plugins-screen.js';
import { SettingsScreen } from '../features/settings/settings-screen.js';
import { useConnection } from './model-context.js';
import { Navigation, type Screen } from './navigation.js';
import { NavigateContext } from './navigation-context.js';
import { ErrorBoundary } from './error-boundary.js';

export function App() {
  const [screen, setScreen] = useState<Screen>('chat');
  const unauthorized = useConnection((state) => connectionPhase(state) === 'unauthorized');
  return (
    <NavigateContext.Provider value={setScreen}>
      <div className="app">
        <Navigation current={screen} onSelect={setScreen} />
        <main className="content">
          <ErrorBoundary resetKey={screen}>{unauthorized ? <UnauthorizedScreen /> : renderScreen(screen)}</ErrorBoundary>
        </main>
        <StatusBar />
      </div>
    </NavigateContext.Provider>
  );
}

function renderScreen(screen: Screen) {
  switch (screen) {
    case 'chat':
      return <ChatScreen />;
    case 'plugins':
      return <PluginsScreen />;
    case 'settings':
      return <SettingsScreen />;
    case 'audit':
      return <AuditScreen />;
  }
}
