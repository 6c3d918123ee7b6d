/** The HTTP rail's error classes (reference §3.2 step 7 and §2.16), as FermixErrors the model can act on. */
import { FermixError } from '../../../core/errors.js';
import { redactSecrets } from '../../../core/redaction.js';
import type { ManifestAuth } from '../../manifest.js';

export const ERROR_BODY_CAP = 2048;

/** At most 2 KiB of the body, with secrets (and the plugin's own credential) redacted. */
export function errorExcerpt(body: Buffer, credential: string | null): string {
  let text = body.subarray(0, ERROR_BODY_CAP).toString('utf8');
  if (credential) text = text.split(credential).join('[REDACTED:credential]');
  return redactSecrets(text).replace(/\s+/g, ' ').trim();
}

export function authRejected(plugin: string, auth: ManifestAuth): FermixError {
  if (auth.type === 'oauth2') {
    return new FermixError({ code: 'reauthorization_required', message: `${plugin} needs reconnection.`, hint: `Run \`fermix plugins auth reauthorize ${plugin}\`.`, data: { plugin } });
  }
  return new FermixError({ code: 'api_key_rejected', message: 'API key rejected.', hint: `Update it with \`fermix plugins auth set ${plugin}\`.`, data: { plugin } });
}

export function httpFailure(plugin: string, auth: ManifestAuth, status: number, headers: Record<string, string | string[] | undefined>, excerpt: string, requiredScopes: readonly string[]): FermixError {
  const body = excerpt ? ` — ${excerpt}` : '';
  if (status === 401) return authRejected(plugin, auth);
  if (status === 403) {
    const granted = String(headers['x-oauth-scopes'] ?? '').split(',').map((s) => s.trim()).filter(Boolean);
    const missing = granted.length > 0 ? requiredScopes.filter((scope) => !granted.includes(scope)) : [...requiredScopes];
    const needs = missing.length > 0 ? missing.join(', ') : 'unknown';
    return new FermixError({ code: 'permission_denied', message: `permission denied (requires: ${needs})${body}`, hint: auth.type === 'oauth2' ? `Reconnect with the missing scopes: \`fermix plugins auth reauthorize ${plugin}\`.` : `Give the ${plugin} credential the missing permission, then \`fermix plugins auth set ${plugin}\`.`, data: { plugin, status, missing_scopes: missing } });
  }
  if (status === 429) {
    const retry = Number(headers['retry-after']);
    const seconds = Number.isFinite(retry) && retry >= 0 ? Math.ceil(retry) : 60;
    return new FermixError({ code: 'rate_limited', message: `rate-limited retry after ${seconds}s`, hint: `Wait ${seconds} seconds before calling ${plugin}'s tools again.`, data: { plugin, status, retry_after_s: seconds } });
  }
  if (status >= 500) return new FermixError({ code: 'provider_error', message: `provider error (${status})${body}`, hint: `${plugin}'s service is failing; try again later.`, data: { plugin, status } });
  return new FermixError({ code: 'request_failed', message: `request failed (${status})${body}`, hint: 'Check the arguments against the tool schema (tool_describe) and try again.', data: { plugin, status } });
}

export function railError(code: string, message: string, hint: string, data?: Record<string, unknown>): FermixError {
  return new FermixError({ code, message, hint, data });
}
