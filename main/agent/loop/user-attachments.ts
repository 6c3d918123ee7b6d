/**
 * A user message's attachments as model input parts (issue 6). What each kind becomes:
 * - png/jpeg/gif/webp: an image part when the model accepts images, else a note saying it was not sent;
 * - text-like files (text/*, JSON, XML, YAML, CSV, source code): inlined as text naming the file, the
 *   first 200 KB when longer (with a note), provided the bytes are UTF-8 text;
 * - PDF: a file part for the openai and anthropic providers (both read PDFs), else a note;
 * - anything else, or a file gone from disk: a note naming the file, its type and size.
 * Files come first and the typed text last ("documents first, question last").
 */
import type { FilePart, ImagePart, TextPart } from 'ai';
import { MODEL_IMAGE_TYPES, formatFileSize } from '../../api/attachment-rules.js';
import type { AttachmentRef } from '../../store/attachments.js';

export type ReadAttachment = (ref: AttachmentRef) => Uint8Array | null;
export type UserPart = TextPart | ImagePart | FilePart;

export interface AttachmentConvertOptions {
  acceptsImages: boolean;
  /** openai and anthropic take PDF file parts; an OpenAI-compatible server mostly does not. */
  providerType?: 'openai' | 'anthropic' | 'openai-compatible';
  /** Absent: the bytes cannot be read here, and every file becomes a note. */
  readAttachment?: ReadAttachment;
}

/** Longer text files are cut here: about 50k tokens, a fair share of a context window. */
export const TEXT_INLINE_BYTES = 200 * 1024;

const TEXT_TYPES = /^(text\/.+|application\/(json|[\w.-]+\+json|xml|[\w.-]+\+xml|(x-)?yaml|(x-)?toml|(x-)?javascript|(x-)?typescript|x-sh|x-shellscript|(x-)?sql|x-python|csv|graphql|x-ndjson|x-httpd-php))$/;

// Browsers leave many source files untyped, or call .ts "video/mp2t": the extension decides for those.
const TEXT_EXTENSIONS = new Set([
  'txt', 'md', 'markdown', 'rst', 'adoc', 'csv', 'tsv', 'json', 'jsonl', 'ndjson', 'xml', 'yaml', 'yml', 'toml', 'ini', 'cfg', 'conf', 'env', 'log',
  'html', 'htm', 'css', 'scss', 'less', 'js', 'mjs', 'cjs', 'jsx', 'ts', 'tsx', 'mts', 'cts', 'py', 'rb', 'go', 'rs', 'java', 'kt', 'kts', 'swift',
  'c', 'h', 'cc', 'cpp', 'hpp', 'cxx', 'cs', 'php', 'pl', 'lua', 'r', 'sql', 'sh', 'bash', 'zsh', 'fish', 'ps1', 'bat', 'vue', 'svelte', 'dart',
  'scala', 'clj', 'ex', 'exs', 'erl', 'hs', 'ml', 'tex', 'graphql', 'gql', 'proto', 'gradle', 'diff', 'patch', 'srt', 'vtt', 'svg',
]);
const TEXT_NAMES = new Set(['makefile', 'dockerfile', 'readme', 'license', '.gitignore', '.editorconfig']);

function describe(ref: AttachmentRef): string {
  return `"${ref.filename}" (${ref.mime_type}, ${formatFileSize(ref.bytes)})`;
}

function note(text: string): TextPart {
  return { type: 'text', text: `[${text}]` };
}

export function isTextLike(ref: AttachmentRef): boolean {
  if (TEXT_TYPES.test(ref.mime_type)) return true;
  const name = ref.filename.toLowerCase();
  const dot = name.lastIndexOf('.');
  return TEXT_NAMES.has(name) || (dot >= 0 && TEXT_EXTENSIONS.has(name.slice(dot + 1)));
}

/** UTF-8 text of at most `limit` bytes, or null for binary content (a NUL byte, invalid UTF-8). */
function decodeText(bytes: Uint8Array, limit: number): string | null {
  const slice = bytes.subarray(0, limit);
  if (slice.subarray(0, 8192).includes(0)) return null;
  try {
    // stream: a cut through a multi-byte character drops that character instead of failing.
    return new TextDecoder('utf-8', { fatal: true }).decode(slice, { stream: slice.length < bytes.length });
  } catch {
    return null;
  }
}

function attributes(ref: AttachmentRef): string {
  return `name="${ref.filename.replace(/"/g, "'")}" type="${ref.mime_type}" size="${formatFileSize(ref.bytes)}"`;
}

function partsFor(ref: AttachmentRef, options: AttachmentConvertOptions): UserPart[] {
  const isImage = MODEL_IMAGE_TYPES.includes(ref.mime_type);
  const isPdf = ref.mime_type === 'application/pdf';
  const textLike = !isImage && !isPdf && isTextLike(ref);
  if (isImage && !options.acceptsImages) {
    return [note(`Attached image ${describe(ref)} was not sent: this model does not accept images. Say so if seeing it matters; a vision model can be chosen in Settings → Models.`)];
  }
  if (isPdf && options.providerType !== 'openai' && options.providerType !== 'anthropic') {
    return [note(`Attached PDF ${describe(ref)} was not sent: this provider does not take PDF files. Ask the person to paste the text that matters.`)];
  }
  if (!isImage && !isPdf && !textLike) {
    return [note(`Attached file ${describe(ref)}: its content is not shown to the model (only text files, images and PDFs are).`)];
  }
  const bytes = options.readAttachment?.(ref) ?? null;
  if (bytes === null) return [note(`Attached file ${describe(ref)} is no longer available in the Fermix home.`)];
  if (isImage) return [{ type: 'text', text: `Attached image ${describe(ref)}:` }, { type: 'image', image: bytes, mediaType: ref.mime_type }];
  if (isPdf) return [{ type: 'text', text: `Attached PDF ${describe(ref)}:` }, { type: 'file', data: bytes, mediaType: 'application/pdf', filename: ref.filename }];
  const text = decodeText(bytes, TEXT_INLINE_BYTES);
  if (text === null) return [note(`Attached file ${describe(ref)} is not UTF-8 text, so its content is not shown to the model.`)];
  const cut = bytes.length > TEXT_INLINE_BYTES ? `\n[truncated: only the first ${formatFileSize(TEXT_INLINE_BYTES)} of ${formatFileSize(bytes.length)} are shown]` : '';
  return [{ type: 'text', text: `<attached_file ${attributes(ref)}>\n${text}${cut}\n</attached_file>` }];
}

/** The content of a user message with attachments: one or more parts per file, then the typed text. */
export function userMessageParts(text: string, attachments: readonly AttachmentRef[], options: AttachmentConvertOptions): UserPart[] {
  const parts = attachments.flatMap((ref) => partsFor(ref, options));
  if (text) parts.push({ type: 'text', text });
  return parts;
}
