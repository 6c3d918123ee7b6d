// The main window and the hardening every web contents gets: no navigation away from the app,
// no new windows, no <webview>, permissions only for our origin.
import { BrowserWindow, shell, type Session, type WebContents } from 'electron';
import { APP_ENTRY_URL, isAppUrl } from './app-origin.js';
import { mainWindowWebPreferences } from './window-options.js';

export function createMainWindow(options: { preloadPath: string; iconPath: string }): BrowserWindow {
  const window = new BrowserWindow({
    width: 1180,
    height: 760,
    minWidth: 720,
    minHeight: 480,
    show: false,
    title: 'Fermix',
    icon: options.iconPath,
    autoHideMenuBar: true,
    webPreferences: mainWindowWebPreferences(options.preloadPath),
  });
  window.once('ready-to-show', () => window.show());
  void window.loadURL(APP_ENTRY_URL);
  return window;
}

export function hardenWebContents(contents: WebContents): void {
  contents.on('will-navigate', (event, url) => {
    if (!isAppUrl(url)) event.preventDefault();
  });
  contents.on('will-redirect', (event, url) => {
    if (!isAppUrl(url)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    // Links the user clicks (e.g. a source in a reply) open in their browser; never inside the app.
    if (url.startsWith('https://')) void shell.openExternal(url);
    return { action: 'deny' };
  });
}

/** Only the app's own window may use the microphone (voice) or write to the clipboard; everything else is refused. */
export function restrictPermissions(session: Session): void {
  const allowed = new Set(['media', 'clipboard-sanitized-write']);
  session.setPermissionRequestHandler((contents, permission, callback) => {
    callback(allowed.has(permission) && isAppUrl(contents.getURL()));
  });
  session.setPermissionCheckHandler((contents, permission) => allowed.has(permission) && isAppUrl(contents?.getURL()));
}
