/**
 * Secret redaction for logs, audit arguments and support bundles: `redactSecrets` scrubs free text,
 * `redactValue` walks structured data. Replacements read `[REDACTED:<kind>]` as in Fermix's log formatter.
 *
 * Every pattern starts with a literal prefix and then runs over one character class with no nested or
 * adjacent overlapping quantifiers, so each match attempt is linear and the whole pass stays linear even
 * on megabyte-long adversarial input. PEM blocks are found with indexOf instead of a lazy `[\s\S]*?`,
 * which would rescan to the end of the text for every unterminated BEGIN line.
 */

export type RedactionKind =
  | 'api_key'
  | 'github_token'
  | 'slack_token'
  | 'google_api_key'
  | 'google_oauth_token'
  | 'aws_access_key'
  | 'aws_secret_key'
  | 'bearer_token'
  | 'telegram_token'
  | 'jwt'
  | 'pem'
  | 'field';

export function redactionMarker(kind: RedactionKind): string {
  return `[REDACTED:${kind}]`;
}

/** Generated secrets mix letters and digits; prose and kebab-case slugs ("sk-learn-style") rarely do. */
function looksGenerated(token: string): boolean {
  return /[0-9]/.test(token) && /[A-Za-z]/.test(token);
}

interface TokenRule {
  kind: RedactionKind;
  pattern: RegExp;
  /** Extra check on the whole match, for prefixes that ordinary text can also start with. */
  accept?: (match: string) => boolean;
}

// The lookbehinds stop matches inside longer words ("task-list…" never yields "sk-list…").
const TOKEN_RULES: TokenRule[] = [
  // Anthropic (sk-ant-…), OpenAI project/service/legacy keys (sk-proj-…, sk-svcacct-…, sk-…).
  { kind: 'api_key', pattern: /(?<![A-Za-z0-9_-])sk-[A-Za-z0-9_-]{20,}/g, accept: looksGenerated },
  // GitHub: classic tokens are a 4-character prefix plus 36 alphanumerics; fine-grained are github_pat_ + 82.
  { kind: 'github_token', pattern: /(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})/g },
  { kind: 'slack_token', pattern: /(?<![A-Za-z0-9_-])(?:xox[abeprs]|xapp)-[A-Za-z0-9-]{10,}/g, accept: looksGenerated },
  { kind: 'google_api_key', pattern: /(?<![A-Za-z0-9_-])AIza[A-Za-z0-9_-]{35}/g },
  { kind: 'google_oauth_token', pattern: /(?<![A-Za-z0-9_-])ya29\.[A-Za-z0-9_-]{20,}/g },
  { kind: 'aws_access_key', pattern: /(?<![A-Za-z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9])/g },
  // Bot tokens are "<bot id>:<35 characters>" (Telegram Bot API docs).
  { kind: 'telegram_token', pattern: /(?<![A-Za-z0-9:])[0-9]{8,10}:[A-Za-z0-9_-]{35}(?![A-Za-z0-9_-])/g },
  // Signature may be empty (alg "none"), and header and payload are JSON objects, so both start "eyJ".
  { kind: 'jwt', pattern: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{4,}\.eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g },
];

// AWS secret keys are 40 base64 characters with no prefix, so only the label next to them identifies them.
const AWS_SECRET = /(aws[_-]?secret[_-]?access[_-]?key|secret[_-]?access[_-]?key)(["']?[ \t]{0,8}[:=][ \t]{0,8}["']?)[A-Za-z0-9/+]{40}/gi;

// Runs after the vendor rules, so "Bearer sk-…" keeps the more specific kind; "[" is outside the token
// class, so an already-redacted token is never matched again.
const BEARER = /\b(bearer)([ \t]{1,8})([A-Za-z0-9._~+/=-]{8,})/gi;

function redactBearer(text: string): string {
  return text.replace(BEARER, (match, word: string, space: string, token: string) =>
    looksGenerated(token) || token.length >= 24 ? `${word}${space}${redactionMarker('bearer_token')}` : match,
  );
}

// Private keys and other secret armor: "RSA PRIVATE KEY", "OPENSSH PRIVATE KEY", "PGP PRIVATE KEY BLOCK",
// "ENCRYPTED PRIVATE KEY", "… SECRET KEY". Certificates and public keys are not secret and stay readable.
const PEM_BEGIN = '-----BEGIN ';
const PEM_LABEL = /^[A-Z0-9 ]{0,60}?(?:PRIVATE|SECRET)[A-Z0-9 ]{0,60}-----/;
// A private key is a few KiB; an END further away than this belongs to some other block.
const PEM_MAX_BODY = 64 * 1024;
// Body of an unterminated (truncated) block: base64 lines, and "\" so JSON-escaped newlines are covered too.
const PEM_BODY = /[A-Za-z0-9+/=\s\\]*/y;

function redactPem(text: string): string {
  if (!text.includes(PEM_BEGIN)) return text;
  let out = '';
  let copied = 0;
  let searchFrom = 0;
  // Cached so many BEGINs without an END cost one scan in total, not one scan each.
  let nextEnd = -2;
  while (true) {
    const begin = text.indexOf(PEM_BEGIN, searchFrom);
    if (begin < 0) break;
    const label = PEM_LABEL.exec(text.slice(begin + PEM_BEGIN.length, begin + PEM_BEGIN.length + 130));
    if (!label) {
      searchFrom = begin + PEM_BEGIN.length;
      continue;
    }
    const bodyStart = begin + PEM_BEGIN.length + label[0].length;
    if (nextEnd !== -1 && nextEnd < bodyStart) nextEnd = text.indexOf('-----END ', bodyStart);
    let stop: number;
    if (nextEnd >= 0 && nextEnd - bodyStart <= PEM_MAX_BODY) {
      const close = text.indexOf('-----', nextEnd + '-----END '.length);
      stop = close >= 0 && close - nextEnd <= 140 ? close + 5 : nextEnd + '-----END '.length;
    } else {
      PEM_BODY.lastIndex = bodyStart;
      PEM_BODY.exec(text);
      stop = PEM_BODY.lastIndex;
    }
    out += text.slice(copied, begin) + redactionMarker('pem');
    copied = stop;
    searchFrom = stop;
  }
  return out + text.slice(copied);
}

/** Replaces every secret found in `text` with `[REDACTED:<kind>]`. Idempotent. */
export function redactSecrets(text: string): string {
  let result = redactPem(text);
  for (const rule of TOKEN_RULES) {
    result = result.replace(rule.pattern, (match) =>
      rule.accept && !rule.accept(match) ? match : redactionMarker(rule.kind),
    );
  }
  result = result.replace(AWS_SECRET, (_match, label: string, separator: string) =>
    `${label}${separator}${redactionMarker('aws_secret_key')}`,
  );
  return redactBearer(result);
}

// A key is sensitive when its last word names a secret: "access_token", "apiKey", "clientSecret" are;
// "max_tokens", "token_count", "secret_name" are not (token usage is logged all the time).
const SECRET_LAST_WORDS = new Set([
  'password', 'passwd', 'passphrase', 'pass', 'pwd', 'secret', 'token', 'apikey', 'authorization',
  'cookie', 'credential', 'credentials',
]);
const SECRET_WORD_PAIRS = new Set(['api key', 'private key', 'secret key', 'access key', 'set cookie']);

export function isSecretFieldName(key: string): boolean {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 0);
  const last = words[words.length - 1];
  if (last === undefined) return false;
  if (SECRET_LAST_WORDS.has(last)) return true;
  return words.length >= 2 && SECRET_WORD_PAIRS.has(`${words[words.length - 2]} ${last}`);
}

/**
 * Returns a JSON-safe copy of `value` with secrets redacted: strings through `redactSecrets`, values under
 * secret-named keys replaced by `[REDACTED:field]` (null, undefined and booleans are kept: they hold no
 * secret and say whether one was set). Errors become {name, message, stack, …own fields}; cycles become
 * "[Circular]".
 */
export function redactValue(value: unknown): unknown {
  return walk(value, new WeakSet<object>(), 0);
}

// Deeper structures are almost certainly accidental (a whole client object); stop rather than flood the log.
const MAX_DEPTH = 20;

function walk(value: unknown, ancestors: WeakSet<object>, depth: number): unknown {
  if (typeof value === 'string') return redactSecrets(value);
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'function' || typeof value === 'symbol') return undefined;
  if (value === null || typeof value !== 'object') return value;
  if (ancestors.has(value)) return '[Circular]';
  if (depth >= MAX_DEPTH) return '[Truncated]';
  if (ArrayBuffer.isView(value)) return `[binary ${value.byteLength} bytes]`;
  ancestors.add(value);
  try {
    if (Array.isArray(value)) return value.map((item) => walk(item, ancestors, depth + 1));
    if (value instanceof Error) return walkEntries(errorEntries(value), ancestors, depth);
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') return walk(toJSON.call(value), ancestors, depth + 1);
    return walkEntries(Object.entries(value), ancestors, depth);
  } finally {
    ancestors.delete(value);
  }
}

function errorEntries(error: Error): [string, unknown][] {
  const entries: [string, unknown][] = [['name', error.name], ['message', error.message]];
  for (const entry of Object.entries(error)) entries.push(entry);
  if (error.cause !== undefined) entries.push(['cause', error.cause]);
  if (error.stack !== undefined) entries.push(['stack', error.stack]);
  return entries;
}

function walkEntries(entries: [string, unknown][], ancestors: WeakSet<object>, depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, item] of entries) {
    const safeKey = redactSecrets(key);
    if (isSecretFieldName(key) && item !== null && item !== undefined && typeof item !== 'boolean') {
      out[safeKey] = redactionMarker('field');
    } else {
      const walked = walk(item, ancestors, depth + 1);
      if (walked !== undefined) out[safeKey] = walked;
    }
  }
  return out;
}
