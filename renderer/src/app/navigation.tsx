import { Icon, type IconName } from '../ui/icons.js';
import { isMac, modKey } from '../features/palette/shortcuts.js';
import { useLayout } from './model-context.js';

export type Screen = 'chat' | 'jobs' | 'skills' | 'memory' | 'plugins' | 'settings' | 'audit';

export const SCREENS: { id: Screen; label: string; icon: IconName }[] = [
  { id: 'chat', label: 'Chat', icon: 'chat' },
  { id: 'jobs', label: 'Jobs', icon: 'list' },
  { id: 'skills', label: 'Skills', icon: 'book' },
  { id: 'memory', label: 'Memory', icon: 'memory' },
  { id: 'plugins', label: 'Plugins', icon: 'plug' },
  { id: 'settings', label: 'Settings', icon: 'gear' },
  { id: 'audit', label: 'Audit', icon: 'shield' },
];

/** The main navigation: a labelled column, a rail of icons when collapsed, a top bar in one column. */
export function Navigation({ current, onSelect }: { current: Screen; onSelect: (screen: Screen) => void }) {
  const collapsed = useLayout((state) => state.navCollapsed);
  const toggle = useLayout((state) => state.toggleNav);
  const open = useLayout((state) => state.open);
  return (
    <nav className="navigation" aria-label="Main" data-collapsed={collapsed || undefined}>
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
              aria-label={screen.label}
              title={collapsed ? screen.label : undefined}
              aria-current={current === screen.id ? 'page' : undefined}
              onClick={() => onSelect(screen.id)}
            >
              <Icon name={screen.icon} size={18} />
              <span className="nav-label">{screen.label}</span>
            </button>
          </li>
        ))}
      </ul>
      <div className="nav-tools">
        {/* The name repeats the visible label (WCAG 2.5.3, label in name) and stays when the collapsed rail hides it. */}
        <button type="button" className="nav-item" aria-label={`Commands ${modKey()}+K`} aria-keyshortcuts={isMac() ? 'Meta+K' : 'Control+K'} title={`Command palette (${modKey()}+K)`} onClick={() => open('palette')}>
          <Icon name="search" size={18} />
          <span className="nav-label">Commands <kbd>{modKey()}+K</kbd></span>
        </button>
        <button
          type="button"
          className="nav-item nav-collapse"
          aria-label={collapsed ? 'Expand navigation' : 'Collapse navigation'}
          aria-expanded={!collapsed}
          title={`${collapsed ? 'Expand' : 'Collapse'} (${modKey()}+Shift+\\)`}
          onClick={toggle}
        >
          <Icon name="chevron" size={18} />
          <span className="nav-label">Collapse</span>
        </button>
      </div>
    </nav>
  );
}
