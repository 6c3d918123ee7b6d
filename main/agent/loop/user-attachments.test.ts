// A user message's attachments → the model's content parts (issue 6), with the real store reading the bytes.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAttachmentStore, toRef, type AttachmentRef } from '../../store/attachments.js';
import { openDatabase, type Database } from '../../store/database.js';
import { toModelMessages, type ConvertOptions } from './history.js';
import { TEXT_INLINE_BYTES } from './user-attachments.js';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

let db: Database | undefined;
afterEach(() => db?.close());

function setup() {
  const home = mkdtempSync(join(tmpdir(), 'fermix-user-attach-'));
  db = openDatabase(join(home, 'fermix.db'), { ownsDaemonLock: true });
  const store = createAttachmentStore({ db, home });
  const save = (filename: string, mimeType: string, bytes: Uint8Array): AttachmentRef => toRef(store.save({ conversationId: 'c1', direction: 'in', filename, mimeType, bytes }));
  const convert = (attachments: AttachmentRef[], options: Partial<ConvertOptions> = {}, text = 'What do you make of these?') =>
    toModelMessages([{ role: 'user', text, attachments }], { imagesInToolResults: false, acceptsImages: true, providerType: 'openai', readAttachment: (ref) => store.readBytes(ref.id), ...options });
  return { store, save, convert };
}

const partsOf = (messages: ReturnType<ReturnType<typeof setup>['convert']>) => {
  expect(messages).toHaveLength(1);
  const content = messages[0].content;
  if (!Array.isArray(content)) throw new Error(`expected parts, got ${JSON.stringify(content)}`);
  return content as any[];
};

describe('user attachments in the model history', () => {
  it('sends an image part, a text file inlined under its name, and a PDF file part, then the typed text', () => {
    const { save, convert } = setup();
    const image = save('pixel.png', 'image/png', PNG);
    const notes = save('notes.md', 'text/markdown', Buffer.from('# Groceries\n- milk\n'));
    const pdf = save('report.pdf', 'application/pdf', PDF);
    const parts = partsOf(convert([image, notes, pdf]));
    expect(parts.map((part) => part.type)).toEqual(['text', 'image', 'text', 'text', 'file', 'text']);
    expect(parts[0].text).toBe('Attached image "pixel.png" (image/png, 70 B):');
    expect(parts[1]).toMatchObject({ type: 'image', mediaType: 'image/png' });
    expect(Buffer.from(parts[1].image).equals(PNG)).toBe(true);
    expect(parts[2].text).toBe('<attached_file name="notes.md" type="text/markdown" size="19 B">\n# Groceries\n- milk\n\n</attached_file>');
    expect(parts[4]).toMatchObject({ type: 'file', mediaType: 'application/pdf', filename: 'report.pdf' });
    expect(Buffer.from(parts[4].data).toString()).toBe(PDF.toString());
    expect(parts[5]).toEqual({ type: 'text', text: 'What do you make of these?' });
  });

  it('says what was left out: images for a model without vision, PDFs for an OpenAI-compatible server, other files', () => {
    const { save, convert } = setup();
    const image = save('pixel.png', 'image/png', PNG);
    const pdf = save('report.pdf', 'application/pdf', PDF);
    const zip = save('backup.zip', 'application/zip', Buffer.from('PK\u0003\u0004rest'));
    const parts = partsOf(convert([image, pdf, zip], { acceptsImages: false, providerType: 'openai-compatible' }, ''));
    expect(parts.every((part) => part.type === 'text')).toBe(true);
    expect(parts.map((part) => part.text)).toEqual([
      '[Attached image "pixel.png" (image/png, 70 B) was not sent: this model does not accept images. Say so if seeing it matters; a vision model can be chosen in Settings → Models.]',
      '[Attached PDF "report.pdf" (application/pdf, 45 B) was not sent: this provider does not take PDF files. Ask the person to paste the text that matters.]',
      '[Attached file "backup.zip" (application/zip, 8 B): its content is not shown to the model (only text files, images and PDFs are).]',
    ]);
    // Anthropic reads PDFs too.
    expect(partsOf(convert([pdf], { providerType: 'anthropic' }))[1]).toMatchObject({ type: 'file', mediaType: 'application/pdf' });
  });

  it('inlines source code the browser mistyped, cuts long text at 200 KB with a note, and refuses binary "text"', () => {
    const { save, convert } = setup();
    // Chromium types .ts files as MPEG transport streams.
    const code = save('main.ts', 'video/mp2t', Buffer.from('export const answer = 42;\n'));
    expect(partsOf(convert([code]))[0].text).toContain('export const answer = 42;');
    const long = save('log.txt', 'text/plain', Buffer.from(`${'é'.repeat(TEXT_INLINE_BYTES)}END`));
    const cut = partsOf(convert([long]))[0].text as string;
    expect(cut).toContain('[truncated: only the first 200 KB of 400 KB are shown]');
    expect(cut).not.toContain('END');
    expect(cut).not.toContain('\uFFFD'); // the cut through a 2-byte character drops it whole
    const binary = save('data.json', 'application/json', Buffer.from([0x7b, 0x00, 0xff, 0xfe]));
    expect(partsOf(convert([binary]))[0].text).toBe('[Attached file "data.json" (application/json, 4 B) is not UTF-8 text, so its content is not shown to the model.]');
  });

  it('says a file is gone instead of failing the turn, and leaves messages without files as plain text', () => {
    const { store, save, convert } = setup();
    const notes = save('notes.txt', 'text/plain', Buffer.from('hello'));
    rmSync(join(store.root, '..', store.get(notes.id).path));
    expect(partsOf(convert([notes]))[0].text).toBe('[Attached file "notes.txt" (text/plain, 5 B) is no longer available in the Fermix home.]');
    expect(convert([], {}, 'plain')).toEqual([{ role: 'user', content: 'plain' }]);
  });
});
