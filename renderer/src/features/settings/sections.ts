/**
 * The Settings screen's own navigation: which section shows. Kept outside React so other screens can send
 * the person to one section directly (the voice button's "Set up voice", the command palette) before the
 * Settings screen mounts; it remembers the last section for the next visit.
 */
import { createStore } from 'zustand/vanilla';

export type SettingsSectionId = 'general' | 'models' | 'voice' | 'sandbox' | 'permissions' | 'about';

export const SETTINGS_SECTIONS: { id: SettingsSectionId; label: string }[] = [
  { id: 'general', label: 'General' },
  { id: 'models', label: 'Models' },
  { id: 'voice', label: 'Voice' },
  { id: 'sandbox', label: 'Sandbox' },
  { id: 'permissions', label: 'Permissions' },
  { id: 'about', label: 'About' },
];

export const settingsSection = createStore<{ current: SettingsSectionId }>()(() => ({ current: 'general' }));

/** Shows `section` the next time Settings renders (and now, if it is open); then navigate to 'settings'. */
export function openSettingsSection(section: SettingsSectionId): void {
  settingsSection.setState({ current: section });
}
