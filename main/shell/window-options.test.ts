import { describe, expect, it } from 'vitest';
import { mainWindowWebPreferences } from './window-options.js';

describe('main window webPreferences', () => {
  it('isolates and sandboxes the page, with no Node and web security on', () => {
    expect(mainWindowWebPreferences('/app/out/preload/index.cjs')).toMatchObject({
      preload: '/app/out/preload/index.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
    });
  });
});
