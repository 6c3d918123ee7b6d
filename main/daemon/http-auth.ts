import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { createWebSessionStore, type WebSessionStore } from './web-sessions.js';

export const SESSION_COOKIE = 'fermix_session';

const SINGLE_HEADERS = new Set(['host', 'origin', 'authorization']);

/**
 * Loopback HTTP auth (ARCHITECTURE §3): a random per-run token, traded by the page for an HttpOnly,
 * SameSite=Strict session cookie; Host and Origin pinned to the bound address against DNS rebinding.
 */
export function createHttpAuth(initialToken = randomBytes(32).toString('base64url'), sessions: WebSessionStore = createWebSessionStore()) {
  let port = 0;
  let token = initialToken;
  const allowedHosts = () => new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  const allowedOrigins = () => new Set([`http://127.0.0.1:${port}`, `http://localhost:${port}`]);

  function safeEqual(a: string, b: string): boolean {
    const left = Buffer.from(a);
    const right = Buffer.from(b);
    return left.length === right.length && timingSafeEqual(left, right);
  }

  function cookieValue(request: IncomingMessage, name: string): string | undefined {
    const header = request.headers.cookie;
    if (!header) return undefined;
    for (const part of header.split(';')) {
      const [key, ...rest] = part.trim().split('=');
      if (key === name) return rest.join('=');
    }
    return undefined;
  }

  return {
    get token() {
      return token;
    },
    /**
     * A new URL token and no sessions left: every open window and every copy of the old URL stop
     * working (the window that asked gets the new URL back and signs in with it).
     */
    rotate(): { token: string; revoked: number } {
      token = randomBytes(32).toString('base64url');
      return { token, revoked: sessions.revokeAll() };
    },
    setPort(value: number) {
      port = value;
    },
    /**
     * 400 reason when a header that decides who is asking appears twice: Node keeps the first Host,
     * Origin or Authorization, a proxy or a later check might read the other one.
     */
    duplicateHeader(request: IncomingMessage): string | undefined {
      const seen = new Set<string>();
      for (let i = 0; i < request.rawHeaders.length; i += 2) {
        const name = request.rawHeaders[i].toLowerCase();
        if (!SINGLE_HEADERS.has(name)) continue;
        if (seen.has(name)) return `The request carries more than one ${name} header`;
        seen.add(name);
      }
      return undefined;
    },
    /** 403 reason, or undefined when Host (and Origin, if sent) name the bound loopback address. */
    checkHostAndOrigin(request: IncomingMessage): string | undefined {
      const host = request.headers.host;
      if (!host || !allowedHosts().has(host.toLowerCase())) return `Host header "${host ?? ''}" is not this daemon's address`;
      const origin = request.headers.origin;
      if (origin !== undefined && !allowedOrigins().has(origin.toLowerCase())) return `Origin "${origin}" is not allowed`;
      return undefined;
    },
    isAuthenticated(request: IncomingMessage): boolean {
      const authorization = request.headers.authorization;
      if (authorization?.startsWith('Bearer ') && safeEqual(authorization.slice(7).trim(), token)) return true;
      return sessions.verify(cookieValue(request, SESSION_COOKIE));
    },
    /** Returns a Set-Cookie value for a valid token, or undefined. */
    exchange(candidate: unknown): string | undefined {
      if (typeof candidate !== 'string' || !safeEqual(candidate, token)) return undefined;
      const session = sessions.create();
      return `${SESSION_COOKIE}=${session}; HttpOnly; SameSite=Strict; Path=/`;
    },
  };
}

export type HttpAuth = ReturnType<typeof createHttpAuth>;
