import { createHmac, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { z } from 'zod';

/** Idle time after which a browser session must trade the token again. */
export const WEB_SESSION_IDLE_MS = 24 * 60 * 60 * 1000;
/** Sessions kept per daemon home; the least recently used goes first. A person has a few browsers, not 32. */
export const MAX_WEB_SESSIONS = 32;
/** last_seen is persisted at most this often, so a busy window does not rewrite the file per request. */
const TOUCH_PERSIST_MS = 60 * 1000;

const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;

const fileSchema = z.object({
  version: z.literal(1),
  sessions: z.array(z.object({ digest: z.string().min(1).max(100), created_at: z.number(), last_seen: z.number() })).max(1000),
});

export interface WebSessionStoreOptions {
  /**
   * `$FERMIX_HOME/secret_key_base` (the name Fermix uses; already a protected path). Undefined keeps
   * everything in memory, for tests and embedders that want per-run sessions.
   */
  secretFile?: string;
  /** `$FERMIX_HOME/run/web-sessions.json`: HMACs of session ids, useless without the secret. */
  sessionsFile?: string;
  idleMs?: number;
  maxSessions?: number;
  now?: () => number;
  onWarn?: (message: string, fields: Record<string, unknown>) => void;
}

interface SessionRow {
  created_at: number;
  last_seen: number;
  persisted_seen: number;
}

function writePrivate(file: string, content: string): void {
  // Write-then-rename: a crash mid-write never leaves a half file that would log everyone out.
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, content, { mode: 0o600 });
  chmodSync(temporary, 0o600);
  renameSync(temporary, file);
}

function loadSecret(file: string | undefined): Buffer {
  if (file === undefined) return randomBytes(32);
  if (existsSync(file)) {
    chmodSync(file, 0o600);
    const text = readFileSync(file, 'utf8').trim();
    const secret = Buffer.from(text, 'base64url');
    if (secret.length >= 32) return secret;
  }
  const secret = randomBytes(32);
  writePrivate(file, `${secret.toString('base64url')}\n`);
  return secret;
}

/**
 * Browser sessions that survive a daemon restart, expire when idle and are capped per daemon.
 * The cookie holds a random id; the file holds only HMAC(secret_key_base, id).
 */
export function createWebSessionStore(options: WebSessionStoreOptions = {}) {
  const idleMs = options.idleMs ?? WEB_SESSION_IDLE_MS;
  const maxSessions = options.maxSessions ?? MAX_WEB_SESSIONS;
  const now = options.now ?? Date.now;
  const secret = loadSecret(options.secretFile);
  // Map order doubles as least-recently-used order: a verified session is re-inserted at the end.
  const sessions = new Map<string, SessionRow>();

  const digest = (id: string) => createHmac('sha256', secret).update(id).digest('base64url');

  if (options.sessionsFile && existsSync(options.sessionsFile)) {
    try {
      const parsed = fileSchema.parse(JSON.parse(readFileSync(options.sessionsFile, 'utf8')));
      const rows = [...parsed.sessions].sort((a, b) => a.last_seen - b.last_seen);
      for (const row of rows) sessions.set(row.digest, { created_at: row.created_at, last_seen: row.last_seen, persisted_seen: row.last_seen });
    } catch (error) {
      options.onWarn?.('web sessions file unreadable; starting with none', { file: options.sessionsFile, error: String(error) });
    }
  }

  function persist(): void {
    if (!options.sessionsFile) return;
    const rows = [...sessions].map(([key, row]) => ({ digest: key, created_at: row.created_at, last_seen: row.last_seen }));
    try {
      writePrivate(options.sessionsFile, JSON.stringify({ version: 1, sessions: rows }));
      for (const row of sessions.values()) row.persisted_seen = row.last_seen;
    } catch (error) {
      // Sessions still work in memory; only the restart survival is lost.
      options.onWarn?.('web sessions could not be saved', { file: options.sessionsFile, error: String(error) });
    }
  }

  function sweep(at: number): boolean {
    let removed = false;
    for (const [key, row] of sessions) {
      if (at - row.last_seen > idleMs) {
        sessions.delete(key);
        removed = true;
      }
    }
    return removed;
  }

  if (sweep(now()) || sessions.size > maxSessions) {
    while (sessions.size > maxSessions) sessions.delete(sessions.keys().next().value as string);
    persist();
  }

  return {
    /** A new session id for the cookie. */
    create(): string {
      const at = now();
      sweep(at);
      while (sessions.size >= maxSessions) sessions.delete(sessions.keys().next().value as string);
      const id = randomBytes(32).toString('base64url');
      sessions.set(digest(id), { created_at: at, last_seen: at, persisted_seen: at });
      persist();
      return id;
    },
    /** True for a live session; counts as activity. An idle-expired one is removed. */
    verify(id: string | undefined): boolean {
      if (id === undefined || !SESSION_ID.test(id)) return false;
      const key = digest(id);
      const row = sessions.get(key);
      if (!row) return false;
      const at = now();
      if (at - row.last_seen > idleMs) {
        sessions.delete(key);
        persist();
        return false;
      }
      row.last_seen = at;
      sessions.delete(key);
      sessions.set(key, row);
      if (at - row.persisted_seen >= TOUCH_PERSIST_MS) persist();
      return true;
    },
    revoke(id: string): void {
      if (SESSION_ID.test(id) && sessions.delete(digest(id))) persist();
    },
    /** `fermix token rotate`: every window signs out, on purpose. Returns how many sessions ended. */
    revokeAll(): number {
      const count = sessions.size;
      sessions.clear();
      persist();
      return count;
    },
    get size() {
      return sessions.size;
    },
  };
}

export type WebSessionStore = ReturnType<typeof createWebSessionStore>;
