import { useLayout } from '../../app/model-context.js';
import { COMPOSER_KEYS, modKey, SHORTCUTS } from './shortcuts.js';

/** `?`: every key the window answers to, from the same table the handler reads. */
export function ShortcutSheet() {
  const close = useLayout((state) => state.close);
  const mod = modKey();
  return (
    <div className="overlay" onPointerDown={(event) => event.target === event.currentTarget && close()} onKeyDown={(event) => event.key === 'Escape' && close()}>
      <div className="sheet" role="dialog" aria-modal="true" aria-labelledby="shortcuts-title">
        <header className="sheet-header">
          <h2 id="shortcuts-title">Keyboard shortcuts</h2>
          <button type="button" className="icon-button" aria-label="Close" autoFocus onClick={close}>×</button>
        </header>
        <table className="shortcut-table">
          <tbody>
            {SHORTCUTS.map((each) => (
              <tr key={each.action}>
                <td><kbd>{each.mod ? `${mod}+${each.keys}` : each.keys}</kbd></td>
                <td>{each.label}</td>
              </tr>
            ))}
            {COMPOSER_KEYS.map(([keys, label]) => (
              <tr key={keys}>
                <td><kbd>{keys}</kbd></td>
                <td>{label} <span className="muted small">(in the message box)</span></td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
