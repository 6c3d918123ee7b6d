/**
 * THE secret scanner: one synchronous rule set used by the logs, the audit records and the audit
 * exports (through redaction.ts). See docs/decisions/0014-secret-scanner-and-bounded-audit.md.
 *
 * The vendor rules follow secretlint's recommended preset (@secretlint/secretlint-rule-preset-recommend@9:
 * aws, gcp, privatekey, npm, basicauth, slack, sendgrid, shopify, github, openai, linear, 1password) and
 * add gitleaks-style shapes the preset lacks (Anthropic, Stripe, GitLab, Hugging Face, …) plus
 * secret-named pairs (`password=`, `--token x`, `X-Api-Key:`, `?access_token=`). test/security/
 * secret-corpus.test.ts runs secretlint itself over the corpus and requires that nothing it flags
 * survives this scanner.
 *
 * Linear time: every pattern starts with a literal or a bounded run of one character class, quantifiers
 * are never nested or adjacent over overlapping classes, and PEM blocks are found with indexOf rather
 * than a lazy `[\s\S]*?`. The fuzz and 1 MB adversarial tests in redaction.test.ts hold it to that.
 */

export type RedactionKind =
  | 'api_key' | 'github_token' | 'gitlab_token' | 'slack_token' | 'slack_webhook' | 'google_api_key'
  | 'google_oauth_token' | 'aws_access_key' | 'aws_secret_key' | 'bearer_token' | 'telegram_token' | 'jwt'
  | 'pem' | 'stripe_key' | 'npm_token' | 'sendgrid_key' | 'shopify_token' | 'linear_key' | 'onepassword_token'
  | 'huggingface_token' | 'digitalocean_token' | 'twilio_key' | 'mailgun_key' | 'pypi_token' | 'age_key'
  | 'url_password' | 'authorization' | 'cookie' | 'field';

export function redactionMarker(kind: RedactionKind): string {
  return `[REDACTED:${kind}]`;
}

const MARKER_PREFIX = '[REDACTED';

/** Generated secrets mix letters and digits; prose and kebab-case slugs ("sk-learn-style") rarely do. */
function looksGenerated(token: string): boolean {
  return /[0-9]/.test(token) && /[A-Za-z]/.test(token);
}

interface TokenRule {
  kind: RedactionKind;
  pattern: RegExp;
  /** Extra check on the whole match, for prefixes that ordinary text can also start with. */
  accept?: (match: string) => boolean;
  /** Every match contains one of these: `includes` is far cheaper than a regex pass that finds nothing. */
  hint: string[];
}

// The lookbehinds stop matches inside longer words ("task-list…" never yields "sk-list…").
// A rule that can match fewer than SHORTEST_PLAIN_MATCH characters with no ':', '=' or '-' in them must
// lower that bound (scanAndRedact skips shorter text of that kind).
const TOKEN_RULES: TokenRule[] = [
  // Anthropic (sk-ant-…), OpenAI project/service/admin/legacy keys (sk-proj-…, sk-svcacct-…, sk-…).
  { kind: 'api_key', pattern: /(?<![A-Za-z0-9_-])sk-[A-Za-z0-9_-]{20,}/g, accept: looksGenerated, hint: ['sk-'] },
  { kind: 'stripe_key', pattern: /(?<![A-Za-z0-9_-])(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}/g, hint: ['_live_', '_test_'] },
  { kind: 'stripe_key', pattern: /(?<![A-Za-z0-9_-])whsec_[A-Za-z0-9]{24,}/g, hint: ['whsec_'] },
  // GitHub: classic tokens are a 4-character prefix plus 36 alphanumerics; fine-grained are github_pat_ + 82.
  { kind: 'github_token', pattern: /(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9_]{30,}|github_pat_[A-Za-z0-9_]{30,})/g, hint: ['gh', 'github_pat_'] },
  { kind: 'gitlab_token', pattern: /(?<![A-Za-z0-9_-])gl(?:pat|dt|rt|ptt|soat)-[A-Za-z0-9_-]{20,}/g, hint: ['gl'] },
  { kind: 'slack_token', pattern: /(?<![A-Za-z0-9_-])(?:xox[a-z]|xapp)-[A-Za-z0-9-]{10,}/g, accept: looksGenerated, hint: ['xox', 'xapp-'] },
  { kind: 'slack_webhook', pattern: /hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9/_+-]{20,}/g, hint: ['hooks.slack.com'] },
  { kind: 'google_api_key', pattern: /(?<![A-Za-z0-9_-])AIza[A-Za-z0-9_-]{35}/g, hint: ['AIza'] },
  { kind: 'google_oauth_token', pattern: /(?<![A-Za-z0-9_-])ya29\.[A-Za-z0-9_-]{20,}/g, hint: ['ya29.'] },
  // secretlint-rule-aws's prefixes (user, role, group, instance profile, temporary keys).
  { kind: 'aws_access_key', pattern: /(?<![A-Za-z0-9])(?:A3T[A-Z0-9]|AKIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9])/g, hint: ['A3T', 'AKIA', 'AGPA', 'AIDA', 'AROA', 'AIPA', 'ANPA', 'ANVA', 'ASIA'] },
  // Bot tokens are "<bot id>:<35 characters>" (Telegram Bot API docs).
  { kind: 'telegram_token', pattern: /(?<![A-Za-z0-9:])[0-9]{8,10}:[A-Za-z0-9_-]{35}(?![A-Za-z0-9_-])/g, hint: [':'] },
  { kind: 'npm_token', pattern: /(?<![A-Za-z0-9_])npm_[A-Za-z0-9]{36}/g, hint: ['npm_'] },
  { kind: 'sendgrid_key', pattern: /(?<![A-Za-z0-9_])SG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}/g, hint: ['SG.'] },
  { kind: 'shopify_token', pattern: /(?<![A-Za-z0-9_])shp(?:pa|ca|at|ss)_[A-Za-z0-9]{32,}/g, hint: ['shp'] },
  { kind: 'linear_key', pattern: /(?<![A-Za-z0-9_])lin_(?:api|oauth)_[A-Za-z0-9_]{32,}/g, hint: ['lin_'] },
  { kind: 'onepassword_token', pattern: /(?<![A-Za-z0-9_])ops_ey[A-Za-z0-9+/=_-]{40,}/g, hint: ['ops_ey'] },
  { kind: 'huggingface_token', pattern: /(?<![A-Za-z0-9_])hf_[A-Za-z0-9]{34,}/g, hint: ['hf_'] },
  { kind: 'digitalocean_token', pattern: /(?<![A-Za-z0-9_])do[opr]_v1_[a-f0-9]{64}/g, hint: ['_v1_'] },
  { kind: 'twilio_key', pattern: /(?<![A-Za-z0-9_])SK[0-9a-fA-F]{32}(?![A-Za-z0-9])/g, hint: ['SK'] },
  { kind: 'mailgun_key', pattern: /(?<![A-Za-z0-9_-])key-[0-9a-zA-Z]{32}(?![A-Za-z0-9])/g, accept: looksGenerated, hint: ['key-'] },
  { kind: 'pypi_token', pattern: /(?<![A-Za-z0-9_])pypi-AgE[A-Za-z0-9_-]{50,}/g, hint: ['pypi-'] },
  { kind: 'age_key', pattern: /AGE-SECRET-KEY-1[0-9A-Z]{58}/g, hint: ['AGE-SECRET-KEY-1'] },
  // Signature may be empty (alg "none"), and header and payload are JSON objects, so both start "eyJ".
  { kind: 'jwt', pattern: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{4,}\.eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g, hint: ['eyJ'] },
];

// AWS secret keys are 40 base64 characters with no prefix, so only the label next to them identifies them.
const AWS_SECRET = /(aws[_-]?secret[_-]?access[_-]?key|secret[_-]?access[_-]?key)(["']?[ \t]{0,8}[:=][ \t]{0,8}["']?)[A-Za-z0-9/+]{40}/gi;

// Runs after the vendor rules, so "Bearer sk-…" keeps the more specific kind; "[" is outside the token
// class, so an already-redacted token is never matched again.
const BEARER = /\b(bearer)([ \t]{1,8})([A-Za-z0-9._~+/=-]{8,})/gi;

// Other Authorization schemes carry the credential after the scheme word (Basic is user:password in base64).
const AUTH_SCHEME = /\b(authorization)(\\?["']?[ \t]{0,8}[:=][ \t]{0,8}\\?["']?)(basic|digest|token|negotiate|ntlm|aws4-hmac-sha256|apikey)([ \t]{1,8})([^\s"'\\]{4,})/gi;

// A cookie header's value is all secret (session ids): the whole rest of the line goes.
const COOKIE = /\b((?:set-)?cookie)(\\?["']?[ \t]{0,8}:[ \t]{0,8}\\?["']?)([^\r\n"'\\]{1,8192})/gi;

// scheme://user:password@host (secretlint-rule-basicauth, plus database URLs); the user stays readable.
const URL_CREDENTIALS = /\b([a-zA-Z][a-zA-Z0-9+.-]{1,20}:\/\/)([^\s:/@"'<>]{1,256}):([^\s/@"'<>]{1,256})@/g;

// curl -u user:password / --user user:password.
const USER_OPTION = /(?<![A-Za-z0-9_-])(-u|--user)([ \t]{1,4}|=)(["']?)([^\s:"']{1,256}):([^\s"']{1,256})/g;

// key=value, key: value, "key": "value", ?key=value — redacted when the key's last word names a secret.
// Found from the separator backwards (redactPairs) rather than by a key regex: each character is looked
// at by at most one separator's look-back, so the pass is linear, and a 1,000-character name is still
// judged by its last 64 characters.
const MAX_KEY = 64;

// --password value, -token "value" (the `=` form is a pair). A value never starts with "-", so the
// next flag is never taken for a value.
const FLAG_HEAD = /(?<![A-Za-z0-9_-])(--?[A-Za-z][A-Za-z0-9_-]{0,63})([ \t]{1,4})(?=[^\s-])/g;

const MAX_VALUE = 4096;
// Ends an unquoted value: whitespace, quotes, and the separators of queries, lists and markup.
const BARE_STOP = new Set([' ', '\t', '\n', '\r', '"', "'", '`', '\\', '&', '<', '>', ',', ';']);

interface ValueSpan {
  /** Where the secret itself starts (after any opening quote) and ends. */
  start: number;
  end: number;
}

function readValue(text: string, at: number): ValueSpan | null {
  let start = at;
  let stop: (char: string) => boolean;
  if (text[at] === '\\' && text[at + 1] === '"') {
    start = at + 2;
    stop = (char) => char === '\\' || char === '"' || char === '\n' || char === '\r';
  } else if (text[at] === '"' || text[at] === "'") {
    const quote = text[at];
    start = at + 1;
    stop = (char) => char === quote || char === '\n' || char === '\r';
  } else {
    stop = (char) => BARE_STOP.has(char);
  }
  let end = start;
  const limit = Math.min(text.length, start + MAX_VALUE);
  while (end < limit && !stop(text[end]!)) end++;
  return end > start ? { start, end } : null;
}

// Key names in URL queries that carry credentials without a secret-sounding word (Google `key=`,
// Azure SAS `sig=`, AWS presigned `X-Amz-Signature=` ends in a secret word already).
const QUERY_ONLY_NAMES = new Set(['key', 'sig', 'signature', 'auth', 'code_verifier']);

/** A value that is a reference to a secret, or already redacted, not a secret itself. */
function isPlaceholder(value: string): boolean {
  return value.startsWith(MARKER_PREFIX) || value.startsWith('$') || value.startsWith('%') || value.startsWith('<') || /^\*+$/.test(value);
}

const AUTH_SCHEME_WORDS = /^(?:bearer|basic|digest|token|negotiate|ntlm|aws4-hmac-sha256|apikey)$/i;

// A key is sensitive when its last word names a secret: "access_token", "apiKey", "clientSecret" are;
// "max_tokens", "token_count", "secret_name" are not (token usage is logged all the time).
const SECRET_LAST_WORDS = new Set([
  'password', 'passwd', 'passphrase', 'pass', 'pwd', 'secret', 'token', 'apikey', 'authorization',
  'cookie', 'credential', 'credentials', 'signature',
]);
// Glued words such as PGPASSWORD, githubtoken, mysecret.
const SECRET_SUFFIXES = ['password', 'passwd', 'passphrase', 'secret', 'token', 'apikey', 'credential', 'credentials'];
const SECRET_WORD_PAIRS = new Set(['api key', 'private key', 'secret key', 'access key', 'set cookie', 'auth key', 'session key', 'account key', 'master key', 'signing key', 'encryption key']);

// Every secret name above contains one of these; most keys do not, and skip the word split.
const SECRET_HINT = /pass|pwd|secret|token|key|auth|cookie|credential|signature/i;

export function isSecretFieldName(key: string): boolean {
  if (!SECRET_HINT.test(key)) return false;
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 0);
  const last = words[words.length - 1];
  if (last === undefined) return false;
  if (SECRET_LAST_WORDS.has(last)) return true;
  if (SECRET_SUFFIXES.some((suffix) => last.length > suffix.length && last.endsWith(suffix))) return true;
  return words.length >= 2 && SECRET_WORD_PAIRS.has(`${words[words.length - 2]} ${last}`);
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

function isKeyChar(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95 || code === 46 || code === 45;
}

function redactPairs(text: string): string {
  let out = '';
  let copied = 0;
  for (let i = 0; i < text.length; i++) {
    const sep = text.charCodeAt(i);
    if (sep !== 58 && sep !== 61) continue; // ':' '='
    let keyEnd = i;
    for (let spaces = 0; spaces < 8 && keyEnd > copied && (text[keyEnd - 1] === ' ' || text[keyEnd - 1] === '\t'); spaces++) keyEnd--;
    if (keyEnd > copied && (text[keyEnd - 1] === '"' || text[keyEnd - 1] === "'")) keyEnd--;
    if (keyEnd > copied && text[keyEnd - 1] === '\\') keyEnd--;
    let keyStart = keyEnd;
    while (keyStart > copied && keyEnd - keyStart < MAX_KEY && isKeyChar(text.charCodeAt(keyStart - 1))) keyStart--;
    if (keyStart === keyEnd) continue;
    const key = text.slice(keyStart, keyEnd);
    const before = text[keyStart - 1];
    const secretKey = isSecretFieldName(key) || (sep === 61 && (before === '?' || before === '&') && QUERY_ONLY_NAMES.has(key.toLowerCase()));
    if (!secretKey) continue;
    let valueAt = i + 1;
    for (let spaces = 0; spaces < 8 && (text[valueAt] === ' ' || text[valueAt] === '\t'); spaces++) valueAt++;
    const span = readValue(text, valueAt);
    if (span === null) continue;
    const value = text.slice(span.start, span.end);
    if (isPlaceholder(value) || AUTH_SCHEME_WORDS.test(value)) continue;
    out += text.slice(copied, span.start) + redactionMarker('field');
    copied = span.end;
    i = span.end - 1;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

function redactFlags(text: string): string {
  FLAG_HEAD.lastIndex = 0;
  let out = '';
  let copied = 0;
  let match: RegExpExecArray | null;
  while ((match = FLAG_HEAD.exec(text)) !== null) {
    if (!isSecretFieldName(match[1]!)) continue;
    const span = readValue(text, match.index + match[0].length);
    if (span === null) continue;
    const value = text.slice(span.start, span.end);
    if (isPlaceholder(value)) continue;
    out += text.slice(copied, span.start) + redactionMarker('field');
    copied = span.end;
    FLAG_HEAD.lastIndex = span.end;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/**
 * The shortest text a rule can change without a ':', '=' or '-' in it is 15 characters: "bearer", a
 * space and an 8-character token. Every other rule either needs one of those three (a pair's separator,
 * a flag, a PEM fence, a dashed prefix, a URL's "://") or a longer match (a JWT is at least 16, a
 * prefixed token 20 or more). So shorter text without them — ids, numbers, names, most argument values —
 * holds nothing to redact, and is known to in one pass over at most 14 characters.
 */
const SHORTEST_PLAIN_MATCH = 15;

/** True when no rule can match `text` (see SHORTEST_PLAIN_MATCH); false means "scan it". */
export function cannotHoldSecret(text: string): boolean {
  if (text.length >= SHORTEST_PLAIN_MATCH) return false;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code === 58 || code === 61 || code === 45) return false; // ':' '=' '-'
  }
  return true;
}

function includesAny(text: string, hints: readonly string[]): boolean {
  for (const hint of hints) if (text.includes(hint)) return true;
  return false;
}

/** Replaces every secret found in `text` with `[REDACTED:<kind>]`. Idempotent; linear in the text's length. */
export function scanAndRedact(text: string): string {
  return cannotHoldSecret(text) ? text : scanWithEveryRule(text);
}

/** Every rule over `text`, without the short-text shortcut (the tests hold the shortcut to it). */
export function scanWithEveryRule(text: string): string {
  let result = redactPem(text);
  for (const rule of TOKEN_RULES) {
    if (!includesAny(result, rule.hint)) continue;
    result = result.replace(rule.pattern, (match) => (rule.accept && !rule.accept(match) ? match : redactionMarker(rule.kind)));
  }
  // The case-insensitive rules below are skipped when their word is absent (one lowercase copy, one pass).
  const lower = result.toLowerCase();
  if (lower.includes('secret')) result = result.replace(AWS_SECRET, (_match, label: string, separator: string) => `${label}${separator}${redactionMarker('aws_secret_key')}`);
  if (lower.includes('bearer')) result = result.replace(BEARER, (match, word: string, space: string, token: string) =>
    looksGenerated(token) || token.length >= 24 ? `${word}${space}${redactionMarker('bearer_token')}` : match,
  );
  if (lower.includes('authorization')) result = result.replace(AUTH_SCHEME, (match, header: string, separator: string, scheme: string, space: string, token: string) =>
    isPlaceholder(token) ? match : `${header}${separator}${scheme}${space}${redactionMarker('authorization')}`,
  );
  if (lower.includes('cookie')) result = result.replace(COOKIE, (match, header: string, separator: string, value: string) =>
    isPlaceholder(value) ? match : `${header}${separator}${redactionMarker('cookie')}`,
  );
  if (lower.includes('://')) result = result.replace(URL_CREDENTIALS, (match, scheme: string, user: string, password: string) =>
    isPlaceholder(password) ? match : `${scheme}${user}:${redactionMarker('url_password')}@`,
  );
  if (lower.includes('-u')) result = result.replace(USER_OPTION, (match, flag: string, space: string, quote: string, user: string, password: string) =>
    isPlaceholder(password) ? match : `${flag}${space}${quote}${user}:${redactionMarker('url_password')}`,
  );
  result = redactPairs(result);
  return lower.includes('-') ? redactFlags(result) : result;
}
