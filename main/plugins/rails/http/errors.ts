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
    // X sends no Retry-After, only `x-rate-limit-reset` (epoch seconds when the window reopens).
    const reset = Number(headers['x-rate-limit-reset']);
    const retry = headers['retry-after'] !== undefined ? Number(headers['retry-after']) : Number.isFinite(reset) && reset > 0 ? Math.max(0, reset - Date.now() / 1000) : NaN;
    const seconds = Number.isFinite(retry) && retry >= 0 ? Math.ceil(retry) : 60;
    return new FermixError({ code: 'rate_limited', message: `rate-limited retry after ${seconds}s`, hint: `Wait ${seconds} seconds before calling ${plugin}'s tools again.`, data: { plugin, status, retry_after_s: seconds } });
  }
  if (status >= 500) return new FermixError({ code: 'provider_error', message: `provider error (${status})${body}`, hint: `${plugin}'s service is failing; try again later.`, data: { plugin, status } });
  return new FermixError({ code: 'request_failed', message: `request failed (${status})${body}`, hint: 'Check the arguments against the tool schema (tool_describe) and try again.', data: { plugin, status } });
}

export function railError(code: string, message: string, hint: string, data?: Record<string, unknown>): FermixError {
  return new FermixError({ code, message, hint, data });
}

const GOOGLE_SCOPE_REASONS = new Set(['insufficientPermissions', 'ACCESS_TOKEN_SCOPE_INSUFFICIENT', 'insufficientScopes']);
const GOOGLE_FILE_REASONS = new Set(['forbidden', 'insufficientFilePermissions', 'appNotAuthorizedToFile', 'requiredAccessLevel', 'cannotModifyViewersCanCopyContent']);
const GOOGLE_ORGANIZER_REASONS = new Set(['forbiddenForNonOrganizer']);
const GOOGLE_RATE_REASONS = new Set(['rateLimitExceeded', 'userRateLimitExceeded', 'dailyLimitExceeded', 'quotaExceeded', 'sharingRateLimitExceeded', 'RATE_LIMIT_EXCEEDED']);

/** The reasons in Google's `{error:{code,message,status,errors:[{reason}],details:[{reason}]}}`. */
export function googleReasons(json: unknown): string[] {
  const error = (json as { error?: { errors?: unknown; details?: unknown } } | null)?.error;
  if (!error || typeof error !== 'object') return [];
  const from = (list: unknown) => (Array.isArray(list) ? list.map((entry) => (entry as { reason?: unknown })?.reason).filter((reason): reason is string => typeof reason === 'string') : []);
  return [...from(error.errors), ...from(error.details)];
}

/**
 * Google's graceful-403 model: every tool is registered whatever scopes were granted, so a 403 must say
 * which of four things happened — a scope the connection lacks (reconnect with it), a file or calendar
 * this account may not touch, an action only the event's organizer may take, or a 403-shaped rate limit.
 * Null when the body names none of them (the generic 403 then applies).
 */
export function googleForbidden(plugin: string, status: number, headers: Record<string, string | string[] | undefined>, json: unknown, excerpt: string, requiredScopes: readonly string[]): FermixError | null {
  if (status !== 403) return null;
  const reasons = googleReasons(json);
  const reason = reasons[0] ?? '';
  const scopeHeader = /insufficient_scope/.test(String(headers['www-authenticate'] ?? ''));
  if (scopeHeader || reasons.some((r) => GOOGLE_SCOPE_REASONS.has(r))) {
    const needs = requiredScopes.length > 0 ? requiredScopes.join(', ') : 'unknown';
    return new FermixError({ code: 'permission_denied', message: `permission denied (requires: ${needs}) — the Google connection was made without this scope`, hint: `Reconnect and grant ${needs}: \`fermix plugins auth reauthorize ${plugin}\`.`, data: { plugin, status, reason: reason || 'insufficient_scope', missing_scopes: [...requiredScopes] } });
  }
  if (reasons.some((r) => GOOGLE_RATE_REASONS.has(r))) {
    const retry = Number(headers['retry-after']);
    const seconds = Number.isFinite(retry) && retry >= 0 ? Math.ceil(retry) : 60;
    return new FermixError({ code: 'rate_limited', message: `rate-limited retry after ${seconds}s (${reason})`, hint: `Wait ${seconds} seconds before calling ${plugin}'s tools again.`, data: { plugin, status, reason, retry_after_s: seconds } });
  }
  if (reasons.some((r) => GOOGLE_ORGANIZER_REASONS.has(r))) {
    return new FermixError({ code: 'organizer_only', message: 'only the event organizer can make this change', hint: 'Change only your own response (google_calendar_respond_to_event), or ask the organizer to make the change.', data: { plugin, status, reason } });
  }
  if (reasons.some((r) => GOOGLE_FILE_REASONS.has(r))) {
    const body = excerpt ? ` — ${excerpt}` : '';
    return new FermixError({ code: 'file_permission_denied', message: `this Google account has no permission for that item (${reason})${body}`, hint: 'Ask the owner to share it with the connected Google account (with edit access for changes), or pick an item you own.', data: { plugin, status, reason } });
  }
  return null;
}
