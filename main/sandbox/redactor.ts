/**
 * Secret redaction for command output and audit text (reference §2.3 "Redaction", §6). Every value
 * of 8 bytes or more becomes `[REDACTED:env:NAME]`; shorter values are not redacted (they would
 * shred ordinary output). Beyond Fermix we also catch the two encodings a model most often uses to
 * smuggle a value past an exact match — base64 (at every byte alignment) and hex. It is a speed
 * bump, not a guarantee: a command that holds a secret can always transform it further.
 */

export const MIN_REDACT_BYTES = 8;

export interface Redactor {
  (text: string): string;
  /** Longest pattern in bytes: output is kept this far past the cap so a secret is never half-kept. */
  readonly lookahead: number;
}

export function createRedactor(values: Record<string, string>): Redactor {
  const names = new Map<string, string>();
  for (const [name, value] of Object.entries(values)) {
    if (Buffer.byteLength(value, 'utf8') < MIN_REDACT_BYTES) continue;
    for (const form of encodedForms(value)) if (!names.has(form)) names.set(form, name);
  }
  // Longest first so a value that contains another value is replaced whole.
  const patterns = [...names.keys()].sort((a, b) => b.length - a.length);
  const lookahead = patterns.length === 0 ? 0 : Math.max(...patterns.map((p) => Buffer.byteLength(p, 'utf8')));
  if (patterns.length === 0) return Object.assign((text: string) => text, { lookahead });
  const regex = new RegExp(patterns.map(escapeRegExp).join('|'), 'g');
  const redact = (text: string) => text.replace(regex, (match) => `[REDACTED:env:${names.get(match)}]`);
  return Object.assign(redact, { lookahead });
}

function encodedForms(value: string): string[] {
  const bytes = Buffer.from(value, 'utf8');
  const forms = [value, bytes.toString('hex'), bytes.toString('hex').toUpperCase()];
  for (let shift = 0; shift < 3; shift += 1) {
    // Prefix `shift` bytes so the value starts at each position inside a 3-byte group, then keep only
    // the characters that depend on the value alone.
    const encoded = Buffer.concat([Buffer.alloc(shift), bytes]).toString('base64');
    const start = Math.ceil((8 * shift) / 6);
    const end = Math.floor((8 * (shift + bytes.length)) / 6);
    const stable = encoded.slice(start, end);
    if (stable.length >= MIN_REDACT_BYTES) forms.push(stable, stable.replaceAll('+', '-').replaceAll('/', '_'));
  }
  return forms;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
