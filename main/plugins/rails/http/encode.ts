/**
 * Body encoders for vendors whose write endpoints do not take plain JSON (decision 0015, "Body
 * encoders"): Gmail's `messages.send` wants an RFC 2822 message, base64url, in one JSON field; Drive's
 * multipart upload wants `multipart/related` (JSON metadata, then the media). Header values come from
 * the model, so CR/LF in them is refused: one newline would let it add a Bcc: or a second part.
 */
import { randomUUID } from 'node:crypto';
import { TemplateArgumentError } from './template.js';

export type BodyEncoder =
  | { kind: 'rfc2822'; field: string; headers: Record<string, string>; text: string }
  | { kind: 'multipart_related'; media: string; media_type: string };

const WHOLE = /^\{([A-Za-z_][A-Za-z0-9_]*)\}$/;
const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** The parameter a template string draws on (for naming it in an error), or the string itself. */
const paramOf = (template: string) => WHOLE.exec(template)?.[1] ?? template;

function fill(template: string, args: Record<string, unknown>): string | undefined {
  const whole = WHOLE.exec(template);
  if (whole && args[whole[1]] === undefined) return undefined;
  return template.replace(PLACEHOLDER, (_, name: string) => {
    const value = args[name];
    if (value === undefined) throw new TemplateArgumentError(name, 'missing');
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') throw new TemplateArgumentError(name, 'invalid');
    return String(value);
  });
}

function headerValue(template: string, args: Record<string, unknown>): string | undefined {
  const value = fill(template, args);
  if (value !== undefined && /[\r\n\0]/.test(value)) throw new TemplateArgumentError(paramOf(template), 'invalid');
  return value;
}

/** RFC 2047 encoded-word for non-ASCII header text (Subject: Größe → =?UTF-8?B?…?=). */
const encodeWord = (text: string) => (/^[\x20-\x7e]*$/.test(text) ? text : `=?UTF-8?B?${Buffer.from(text, 'utf8').toString('base64')}?=`);

export function rfc2822(encoder: Extract<BodyEncoder, { kind: 'rfc2822' }>, args: Record<string, unknown>): string {
  const lines: string[] = [];
  for (const [name, template] of Object.entries(encoder.headers)) {
    const value = headerValue(template, args);
    if (value !== undefined && value !== '') lines.push(`${name}: ${name.toLowerCase() === 'subject' ? encodeWord(value) : value}`);
  }
  const text = fill(encoder.text, args) ?? '';
  const body = Buffer.from(text, 'utf8').toString('base64').replace(/.{76}/g, '$&\r\n');
  lines.push('MIME-Version: 1.0', 'Content-Type: text/plain; charset="UTF-8"', 'Content-Transfer-Encoding: base64', '', body);
  return Buffer.from(lines.join('\r\n'), 'utf8').toString('base64url');
}

export function multipartRelated(encoder: Extract<BodyEncoder, { kind: 'multipart_related' }>, metadata: Record<string, unknown>, args: Record<string, unknown>): { bytes: Buffer; contentType: string } {
  const mediaType = headerValue(encoder.media_type, args) ?? 'text/plain';
  const media = fill(encoder.media, args) ?? '';
  // A random boundary cannot be guessed by the text it wraps.
  const boundary = `fermix-${randomUUID()}`;
  if (media.includes(boundary)) throw new TemplateArgumentError(paramOf(encoder.media), 'invalid');
  const bytes = Buffer.from([
    `--${boundary}`, 'Content-Type: application/json; charset=UTF-8', '', JSON.stringify(metadata),
    `--${boundary}`, `Content-Type: ${mediaType}`, '', media,
    `--${boundary}--`, '',
  ].join('\r\n'), 'utf8');
  return { bytes, contentType: `multipart/related; boundary=${boundary}` };
}
