export type Screen = 'chat' | 'plugins' | 'settings' | 'audit';

const SCREENS: { id: Screen; label: string }[] = [
  { id: 'chat', label: 'Chat' },
  { id: 'plugins', label: 'Plugins' },
  { id: 'settings', label: 'Settings' },
  { id: 'audit', label: 'Audit' },
];

export function Navigation({ current, onSelect }: { current: Screen; onSelect: (screen: Screen) => void }) {
  return (
    <nav className="navigation" aria-label="Main">
      <div className="brand" aria-hidden="true">
        <span className="brand-mark">F</span>
        <span className="brand-name">Fermix</span>
      </div>
      <ul>
        {SCREENS.map((screen) => (
          <li key={screen.id}>
            <button
              type="button"
              className="nav-item"
              aria-current={current === screen.id ? 'page' : undefined}
              onClick={() => onSelect(screen.id)}
            >
              {screen.label}
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}
