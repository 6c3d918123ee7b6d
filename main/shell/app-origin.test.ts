import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { APP_CONTENT_SECURITY_POLICY, isAppUrl, resolveAppFile } from './app-origin.js';

describe('the app origin', () => {
  it('accepts only app://fermix URLs as the app', () => {
    expect(isAppUrl('app://fermix/index.html')).toBe(true);
    expect(isAppUrl('app://fermix/assets/x.js?v=1')).toBe(true);
    for (const url of ['app://evil/index.html', 'http://127.0.0.1:4030/', 'file:///etc/passwd', 'https://fermix/', 'about:blank', '', undefined, null, 'not a url']) {
      expect(isAppUrl(url), String(url)).toBe(false);
    }
  });

  it('maps URLs to files inside the renderer folder and refuses to leave it', () => {
    const root = '/opt/fermix/out/renderer';
    expect(resolveAppFile(root, 'app://fermix/index.html')).toBe(join(root, 'index.html'));
    expect(resolveAppFile(root, 'app://fermix/assets/index-1.js')).toBe(join(root, 'assets/index-1.js'));
    expect(resolveAppFile(root, 'app://fermix/')).toBe(join(root, 'index.html'));
    // Client-side screens fall back to the page; traversal (also percent-encoded) never escapes the root.
    expect(resolveAppFile(root, 'app://fermix/settings')).toBe(join(root, 'index.html'));
    // The URL parser already folds dot segments (also %2e%2e) at the root; encoded slashes reach us raw.
    expect(resolveAppFile(root, 'app://fermix/%2e%2e/%2e%2e/main/index.js')).toBe(join(root, 'main/index.js'));
    expect(resolveAppFile(root, 'app://fermix/..%2F..%2Fmain%2Findex.js')).toBeUndefined();
    expect(resolveAppFile(root, 'app://other/index.html')).toBeUndefined();
  });

  it('keeps the window CSP free of inline script, remote hosts and eval', () => {
    expect(APP_CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    expect(APP_CONTENT_SECURITY_POLICY).toContain("default-src 'none'");
    expect(APP_CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-inline|unsafe-eval|https?:|\*/);
  });
});
