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

export function App() {
  const [screen, setScreen] = useState<Screen>('chat');
  const unauthorized = useConnection((state) => connectionPhase(state) === 'unauthorized');
  return (
    <div className="app">
      <Navigation current={screen} onSelect={setScreen} />
      <main className="content">
        {unauthorized ? <UnauthorizedScreen /> : renderScreen(screen)}
      </main>
      <StatusBar />
    </div>
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
