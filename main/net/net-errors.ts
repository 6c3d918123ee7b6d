import { FermixError, type ErrorData } from '../core/errors.js';

/**
 * The failure tags Net.Guard produces. `blocked_url`, `redirect_limit` and `network` are Fermix's web_fetch
 * tags (reference §2.13); `body_too_large`, `timeout`, `cancelled` and `unsupported_content_type` are ours.
 */
export const NET_ERROR_CODES = [
  'blocked_url',
  'body_too_large',
  'redirect_limit',
  'timeout',
  'cancelled',
  'network',
  'unsupported_content_type',
] as const;
export type NetErrorCode = (typeof NET_ERROR_CODES)[number];

const BLOCKED_HINT =
  'web_fetch reaches public internet hosts only. Use a public http(s) URL; ' +
  'to reach a service on this machine, use the `shell` tool (e.g. curl) inside the sandbox instead.';

/** `reason` completes the sentence "<url> is blocked: …", e.g. "it resolves to a private address 10.0.0.5". */
export function blockedUrl(url: string, reason: string, data: ErrorData = {}): FermixError {
  return new FermixError({
    code: 'blocked_url',
    message: `${shorten(url)} is blocked: ${reason}.`,
    hint: BLOCKED_HINT,
    data: { url: shorten(url), reason, ...data },
  });
}

export function netError(code: NetErrorCode, message: string, hint: string, data?: ErrorData, cause?: unknown) {
  return new FermixError({ code, message, hint, data, cause });
}

/** URLs come from models and web pages; keep messages one readable sentence. */
function shorten(url: string): string {
  return url.length > 200 ? `${url.slice(0, 200)}…` : url;
}
