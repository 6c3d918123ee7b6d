/**
 * What may become a stored attachment: the name shown (a base name, no control characters), the name on
 * disk (ASCII, no dots in front, never a path), the declared type checked against the bytes for the image
 * types models read, and base64 decoded only after its size has been checked from the string's length.
 */
import { FermixError } from '../core/errors.js';
import { MAX_ATTACHMENT_BYTES, MODEL_IMAGE_TYPES, attachmentEmpty, attachmentTooLarge } from '../api/attachment-rules.js';

// C0/C1 controls and the bidi overrides that can make "gpj.exe" read as "exe.jpg".
const UNSAFE_CHARS = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,63}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const MAX_NAME_CHARS = 255;
const MAX_DISK_NAME_CHARS = 100;

function invalid(filename: string, message: string, hint: string): FermixError {
  return new FermixError({ code: 'attachment_invalid', message, hint, data: { filename } });
}

/** Keeps the extension when a name has to be shortened (the type often lives there). */
function shorten(name: string, max: number): string {
  if (name.length <= max) return name;
  const dot = name.lastIndexOf('.');
  const extension = dot > 0 && name.length - dot <= 12 ? name.slice(dot) : '';
  return name.slice(0, max - extension.length) + extension;
}

/**
 * The name shown and recorded: the last path segment only (a client that sends "../../x" gets "x"), without
 * control or bidi characters. A name with nothing left (".", "..", "a/") is refused.
 */
export function displayName(raw: string): string {
  const base = raw.split(/[/\\]/).pop() ?? '';
  const clean = base.normalize('NFC').replace(UNSAFE_CHARS, '').trim();
  if (clean === '' || /^\.+$/.test(clean)) {
    throw invalid(raw.slice(0, 200), `The file name "${raw.slice(0, 80)}" has no usable name in it.`, 'Give the file a plain name such as notes.txt and attach it again.');
  }
  return shorten(clean, MAX_NAME_CHARS);
}

/** The file's name on disk after its id: ASCII letters, digits, . _ - only, never starting with a dot. */
export function diskName(display: string): string {
  const ascii = display
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^[._-]+/, '')
    .replace(/_{2,}/g, '_');
  return shorten(ascii, MAX_DISK_NAME_CHARS) || 'file';
}

/** A conversation id as one directory name (ids may contain "." and ":"; ".." must never be a segment). */
export function conversationDir(conversationId: string): string {
  return conversationId.replace(/[^A-Za-z0-9_-]/g, '_') || '_';
}

/** The four image types models read, from their magic bytes. */
export function sniffImage(bytes: Uint8Array): string | undefined {
  const ascii = (start: number, end: number) => String.fromCharCode(...bytes.subarray(start, end));
  if (bytes.length >= 8 && bytes[0] === 0x89 && ascii(1, 4) === 'PNG' && bytes[4] === 0x0d && bytes[5] === 0x0a) return 'image/png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a') return 'image/gif';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'image/webp';
  return undefined;
}

/**
 * The type recorded: the declared one (lower case, parameters dropped) checked against the bytes. A file
 * declared as a model image type must be one, or the provider would refuse the whole request; an
 * undeclared image or PDF gets its real type.
 */
export function checkedMimeType(filename: string, declared: string, bytes: Uint8Array): string {
  const base = (declared.split(';')[0] ?? '').trim().toLowerCase() || 'application/octet-stream';
  if (!MEDIA_TYPE.test(base)) {
    throw invalid(filename, `"${filename}" declares the type "${declared.slice(0, 60)}", which is not a media type.`, 'Send a type such as text/plain or image/png, or application/octet-stream when it is unknown.');
  }
  const sniffed = sniffImage(bytes);
  if (MODEL_IMAGE_TYPES.includes(base)) {
    if (sniffed) return sniffed; // a JPEG saved as .png is still an image the model can read
    throw invalid(filename, `"${filename}" is declared ${base} but its bytes are not a ${base.slice(6).toUpperCase()} image.`, 'Attach the original image file; if it is another kind of file, give it its real extension.');
  }
  if (base === 'application/octet-stream') {
    if (sniffed) return sniffed;
    if (String.fromCharCode(...bytes.subarray(0, 5)) === '%PDF-') return 'application/pdf';
  }
  return base;
}

/** Bytes a base64 string decodes to, without decoding it. */
export function base64DecodedLength(text: string): number {
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  return Math.floor((text.length * 3) / 4) - padding;
}

/** Size first (from the length: an oversize upload is never copied), then the alphabet, then emptiness. */
export function decodeAttachment(filename: string, base64: string): Uint8Array {
  const size = base64DecodedLength(base64);
  if (size > MAX_ATTACHMENT_BYTES) throw attachmentTooLarge(filename, size);
  if (base64.length % 4 !== 0 || !BASE64.test(base64)) {
    throw invalid(filename, `"${filename}" did not arrive as valid base64.`, 'Encode the file with standard base64 (RFC 4648, with = padding); the Fermix window does this when you attach a file.');
  }
  const bytes = new Uint8Array(Buffer.from(base64, 'base64'));
  if (bytes.length === 0) throw attachmentEmpty(filename);
  return bytes;
}
