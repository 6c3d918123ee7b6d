/**
 * The bundled plugins (the Google trio): shipped in every catalog, always present, never uninstalled —
 * disabling is how an operator turns one off. The rule lives in the store so no caller can skip it.
 */
import { FermixError } from '../../core/errors.js';

export const BUNDLED_PLUGINS: readonly string[] = Object.freeze(['gmail', 'google_calendar', 'google_drive']);

export const isBundled = (name: string) => BUNDLED_PLUGINS.includes(name);

export function bundledRefusal(name: string): FermixError {
  return new FermixError({ code: 'bundled_plugin', message: `${name} is bundled with Fermix and cannot be uninstalled.`, hint: `Disable it instead: \`fermix plugins disable ${name}\`.`, data: { plugin: name } });
}
