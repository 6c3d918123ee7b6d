import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createWebSessionStore, MAX_WEB_SESSIONS } from './web-sessions.js';
import { createProtectedMatcher } from '../sandbox/protected-paths.js';

function files() {
  const dir = mkdtempSync(join(tmpdir(), 'fermix-web-sessions-'));
  return { dir, secretFile: join(dir, 'secret_key_base'), sessionsFile: join(dir, 'web-sessions.json') };
}

describe('web sessions', () => {
  it('survive a restart: a new store on the same files accepts the old cookie; the files are 0600 and hold no cookie', () => {
    const paths = files();
    const first = createWebSessionStore(paths);
    const id = first.create();
    expect(first.verify(id)).toBe(true);
    const second = createWebSessionStore(paths);
    expect(second.verify(id)).toBe(true);
    expect(second.verify('A'.repeat(43))).toBe(false);
    expect(statSync(paths.secretFile).mode & 0o777).toBe(0o600);
    expect(statSync(paths.sessionsFile).mode & 0o777).toBe(0o600);
    expect(readFileSync(paths.sessionsFile, 'utf8')).not.toContain(id);
  });

  it('a different secret_key_base invalidates every stored session', () => {
    const paths = files();
    const id = createWebSessionStore(paths).create();
    writeFileSync(paths.secretFile, `${Buffer.alloc(32, 7).toString('base64url')}\n`);
    expect(createWebSessionStore(paths).verify(id)).toBe(false);
  });

  it('expires after idle time, but activity keeps a session alive (also across a restart)', () => {
    const paths = files();
    let now = 1_000_000;
    const store = createWebSessionStore({ ...paths, idleMs: 60_000, now: () => now });
    const busy = store.create();
    const idle = store.create();
    for (let i = 0; i < 5; i += 1) {
      now += 50_000;
      expect(store.verify(busy)).toBe(true);
    }
    expect(store.verify(idle)).toBe(false);
    now += 50_000;
    expect(createWebSessionStore({ ...paths, idleMs: 60_000, now: () => now }).verify(busy)).toBe(true);
    now += 61_000;
    expect(store.verify(busy)).toBe(false);
    expect(store.size).toBe(0);
  });

  it('keeps at most MAX_WEB_SESSIONS, dropping the least recently used', () => {
    const store = createWebSessionStore();
    const first = store.create();
    const second = store.create();
    for (let i = 0; i < MAX_WEB_SESSIONS - 2; i += 1) store.create();
    expect(store.verify(first)).toBe(true); // now the most recently used
    store.create();
    expect(store.size).toBe(MAX_WEB_SESSIONS);
    expect(store.verify(second)).toBe(false);
    expect(store.verify(first)).toBe(true);
  });

  it('starts empty, with a warning, from a corrupt sessions file; refuses malformed cookies without hashing them', () => {
    const paths = files();
    writeFileSync(paths.sessionsFile, '{not json');
    const warnings: string[] = [];
    const store = createWebSessionStore({ ...paths, onWarn: (message) => warnings.push(message) });
    expect(warnings).toEqual(['web sessions file unreadable; starting with none']);
    for (const bad of [undefined, '', 'x', 'A'.repeat(44), '../../etc', 'A'.repeat(42) + '=']) expect(store.verify(bad)).toBe(false);
    const id = store.create();
    store.revoke(id);
    expect(store.verify(id)).toBe(false);
  });

  it('the secret lives at a path the sandbox already protects', () => {
    const home = mkdtempSync(join(tmpdir(), 'fermix-home-'));
    const matcher = createProtectedMatcher({ home: tmpdir(), fermixHome: home });
    for (const file of ['secret_key_base', `secret_key_base.${process.pid}.tmp`, 'run/web-sessions.json']) {
      expect(matcher.match(join(home, file), 'read')?.kind, file).toBe('fermix_state');
    }
  });
});
