import { useEffect, useRef } from 'react';
import { useStore } from 'zustand';
import { useProviders, useSettings } from '../../app/model-context.js';
import { AboutSection } from './about-section.js';
import { GeneralSection } from './general-section.js';
import { PermissionsSection } from './permissions-section.js';
import { ProvidersSection } from './providers-section.js';
import { SandboxSection } from './sandbox-section.js';
import { SETTINGS_SECTIONS, settingsSection, type SettingsSectionId } from './sections.js';
import { TranscriptionSection } from './transcription-section.js';

/**
 * Settings as sections with their own navigation: one short page at a time, so every save is confirmed
 * next to its button and on screen. Plugins and MCP keep their own place in the main navigation.
 */
export function SettingsScreen() {
  const load = useSettings((state) => state.load);
  const dismiss = useSettings((state) => state.dismiss);
  const loadProviders = useProviders((state) => state.load);
  const dismissProviders = useProviders((state) => state.dismiss);
  const current = useStore(settingsSection, (state) => state.current);
  const body = useRef<HTMLDivElement>(null);
  const opened = useRef(true);
  useEffect(() => {
    void load();
    void loadProviders();
  }, [load, loadProviders]);
  // An answer belongs to the moment it was given: opening Settings or another section starts clean.
  useEffect(() => {
    dismiss();
    dismissProviders();
    if (opened.current) opened.current = false;
    else body.current?.querySelector<HTMLElement>('h2')?.focus(); // a screen reader hears where it landed
  }, [current, dismiss, dismissProviders]);
  return (
    <section className="screen settings-screen" aria-labelledby="settings-title">
      <h1 id="settings-title">Settings</h1>
      <div className="settings-layout">
        <nav className="settings-nav" aria-label="Settings sections">
          <ul>
            {SETTINGS_SECTIONS.map((each) => (
              <li key={each.id}>
                <button
                  type="button"
                  className="settings-nav-item"
                  aria-current={each.id === current ? 'page' : undefined}
                  onClick={() => settingsSection.setState({ current: each.id })}
                >
                  {each.label}
                </button>
              </li>
            ))}
          </ul>
        </nav>
        <div className="settings-body" ref={body} key={current}>
          {renderSection(current)}
        </div>
      </div>
    </section>
  );
}

function renderSection(section: SettingsSectionId) {
  switch (section) {
    case 'general':
      return <GeneralSection />;
    case 'models':
      return <ProvidersSection />;
    case 'voice':
      return <TranscriptionSection />;
    case 'sandbox':
      return <SandboxSection />;
    case 'permissions':
      return <PermissionsSection />;
    case 'about':
      return <AboutSection />;
  }
}
