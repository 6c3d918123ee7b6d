import { useEffect } from 'react';
import { ErrorNotice } from '../../app/error-notice.js';
import { useProviders, useSettings } from '../../app/model-context.js';
import { DaemonSection } from './daemon-section.js';
import { PermissionsSection } from './permissions-section.js';
import { ProvidersSection } from './providers-section.js';
import { SandboxSection } from './sandbox-section.js';
import { TranscriptionSection } from './transcription-section.js';

/** Settings: providers and model, permissions, sandbox, transcription, and facts about the daemon. */
export function SettingsScreen() {
  const load = useSettings((state) => state.load);
  const loadProviders = useProviders((state) => state.load);
  const error = useSettings((state) => state.error);
  const message = useSettings((state) => state.message);
  const dismiss = useSettings((state) => state.dismiss);
  useEffect(() => {
    void load();
    void loadProviders();
  }, [load, loadProviders]);
  return (
    <section className="screen settings-screen" aria-labelledby="settings-title">
      <h1 id="settings-title">Settings</h1>
      <nav className="settings-toc" aria-label="Settings sections">
        <a href="#settings-providers">Providers</a> · <a href="#settings-permissions">Permissions</a> · <a href="#settings-sandbox">Sandbox</a> ·{' '}
        <a href="#settings-transcription">Voice</a> · <a href="#settings-daemon">This daemon</a>
      </nav>
      {message && (
        <p className="saved-message" role="status">
          {message}{' '}
          <button type="button" className="link-button" onClick={dismiss}>Dismiss</button>
        </p>
      )}
      {error && <ErrorNotice error={error} onDismiss={dismiss} />}
      <ProvidersSection />
      <PermissionsSection />
      <SandboxSection />
      <TranscriptionSection />
      <DaemonSection />
    </section>
  );
}
