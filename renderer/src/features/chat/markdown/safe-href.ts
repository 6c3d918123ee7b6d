const SAFE_SCHEME = /^(https?:\/\/|mailto:)/i;

/** Only http(s) and mailto links become links; anything else (javascript:, file:, data:, relative) stays text. */
export function safeHref(href: string | undefined): string | null {
  const trimmed = (href ?? '').trim();
  return SAFE_SCHEME.test(trimmed) ? trimmed : null;
}
