// Attachments in the chat window (jsdom, real dispatcher, scripted handlers): pending chips from the file
// picker and from a paste, the refusal of a too-large file in the daemon's words before any upload, the
// upload → chat.send order with the files under the sent message, and the agent's file downloaded by id.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import type { Handlers } from '../../../../../main/api/dispatcher.js';
import { attachmentTooLarge } from '../../../../../main/api/attachment-rules.js';
import { App } from '../../../app/app.js';
import { createAppModel } from '../../../app/app-model.js';
import { ModelProvider } from '../../../app/model-context.js';
import { inProcessDaemon, type InProcessDaemon } from '../../../testing/in-process-daemon.js';

// jsdom has no object URLs; the download test supplies them and they are taken away again after it.
const urlApi = { createObjectURL: URL.createObjectURL, revokeObjectURL: URL.revokeObjectURL };
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  Object.assign(URL, urlApi);
});

const later = () => new Promise((resolve) => setTimeout(resolve, 0));

async function openWindow(handlers: (daemon: () => InProcessDaemon) => Partial<Handlers> = () => ({})) {
  const holder: { daemon?: InProcessDaemon } = {};
  const daemon = inProcessDaemon({ handlers: handlers(() => holder.daemon!) });
  holder.daemon = daemon;
  await act(async () => {
    render(<ModelProvider model={createAppModel(daemon.transport)}><App /></ModelProvider>);
  });
  return daemon;
}

function pick(files: File[]) {
  const input = screen.getByTestId('attach-input') as HTMLInputElement;
  Object.defineProperty(input, 'files', { value: files, configurable: true });
  fireEvent.change(input);
}

const sized = (file: File, size: number) => Object.defineProperty(file, 'size', { value: size });

/** Upload and send handlers that remember what arrived, like the daemon's. */
function recordingDaemon(uploads: { filename: string; mime_type: string; text: string }[]) {
  return (daemon: () => InProcessDaemon): Partial<Handlers> => ({
    'attachments.upload': (input) => {
      uploads.push({ filename: input.filename, mime_type: input.mime_type, text: atob(input.base64) });
      return { id: `A${uploads.length}`, conversation_id: input.conversation_id, filename: input.filename, mime_type: input.mime_type, bytes: atob(input.base64).length, direction: 'in', turn_id: null, created_at: '2026-01-01T00:00:00Z' };
    },
    'chat.send': (input) => {
      // Before the answer, as over a real daemon where the event socket can beat the HTTP reply.
      daemon().emit(input.conversation_id!, 'chat.turn_queued', { turn_id: 'T1', conversation_id: input.conversation_id!, position: 0 });
      return { conversation_id: input.conversation_id!, turn_id: 'T1', position: 0, events_after_seq: 0, turn: null };
    },
  });
}

describe('attaching files in the composer', () => {
  it('shows picked files as removable chips with their size, and refuses a too-large one in the daemon’s words', async () => {
    const daemon = await openWindow();
    const huge = sized(new File(['x'], 'movie.mp4', { type: 'video/mp4' }), 25 * 1024 * 1024);
    await act(async () => pick([new File(['buy milk'], 'notes.txt', { type: 'text/plain' }), new File(['a,b\n1,2\n'], 'data.csv', { type: 'text/csv' }), huge]));
    const chips = screen.getByRole('list', { name: 'Files to send' });
    expect(within(chips).getAllByRole('listitem').map((chip) => chip.textContent)).toEqual(['notes.txt8 B', 'data.csv8 B']);
    const refusal = screen.getByRole('alert');
    expect(refusal.textContent).toContain(attachmentTooLarge('movie.mp4', 25 * 1024 * 1024).message);
    expect(refusal.textContent).toContain('"movie.mp4" is 25 MB; a chat attachment can be at most 20 MB.');
    // Removing is keyboard reachable: a button named after the file.
    const remove = screen.getByRole('button', { name: 'Remove data.csv' });
    remove.focus();
    await act(async () => fireEvent.click(remove));
    expect(within(screen.getByRole('list', { name: 'Files to send' })).getAllByRole('listitem')).toHaveLength(1);
    // Nothing was uploaded: the check ran in the window.
    expect(daemon.calls.filter((call) => call.method === 'attachments.upload')).toEqual([]);
  });

  it('takes a pasted image as a file, and refuses an eleventh file', async () => {
    await openWindow();
    const box = screen.getByRole('textbox', { name: 'Message' });
    const shot = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'image.png', { type: 'image/png' });
    await act(async () => fireEvent.paste(box, { clipboardData: { files: [shot] } }));
    expect(screen.getByRole('button', { name: 'Remove image.png' })).toBeTruthy();
    await act(async () => pick(Array.from({ length: 10 }, (_, index) => new File(['x'], `f${index}.txt`, { type: 'text/plain' }))));
    expect(within(screen.getByRole('list', { name: 'Files to send' })).getAllByRole('listitem')).toHaveLength(10);
    expect(screen.getByRole('alert').textContent).toContain('A message can carry at most 10 files; this one has 11.');
  });

  it('uploads each file, then sends their ids with the message, and shows them under it', async () => {
    const uploads: { filename: string; mime_type: string; text: string }[] = [];
    const daemon = await openWindow(recordingDaemon(uploads));
    await act(async () => pick([new File(['buy milk'], 'notes.txt', { type: 'text/plain' }), new File(['{"a":1}'], 'config.json', { type: '' })]));
    const box = screen.getByRole('textbox', { name: 'Message' });
    await act(async () => {
      fireEvent.change(box, { target: { value: 'Read these' } });
      fireEvent.keyDown(box, { key: 'Enter' });
      await later();
    });
    await act(later);
    expect(uploads).toEqual([
      { filename: 'notes.txt', mime_type: 'text/plain', text: 'buy milk' },
      { filename: 'config.json', mime_type: 'application/octet-stream', text: '{"a":1}' },
    ]);
    const methods = daemon.calls.map((call) => call.method);
    expect(methods.lastIndexOf('attachments.upload')).toBeLessThan(methods.indexOf('chat.send'));
    expect(daemon.calls.find((call) => call.method === 'chat.send')?.input).toMatchObject({ message: 'Read these', attachment_ids: ['A1', 'A2'] });
    const message = screen.getByRole('article', { name: 'Your message' });
    const files = within(message).getByRole('list', { name: 'Attached files' });
    expect(within(files).getAllByRole('listitem').map((item) => item.getAttribute('aria-label'))).toEqual(['notes.txt, 8 B', 'config.json, 7 B']);
    expect(within(files).getByRole('button', { name: 'Download notes.txt' })).toBeTruthy();
    expect(screen.queryByRole('list', { name: 'Files to send' })).toBeNull();
  });

  it('downloads the agent’s file through attachments.get and a Blob URL', async () => {
    const created: Blob[] = [];
    Object.assign(URL, { createObjectURL: (blob: Blob) => (created.push(blob), `blob:test/${created.length}`), revokeObjectURL: () => {} });
    const clicked: { download: string; href: string }[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ download: this.download, href: this.href });
    });
    const daemon = await openWindow(() => ({
      'attachments.get': (input) => ({ id: input.id, conversation_id: 'c1', filename: 'report.txt', mime_type: 'text/plain', bytes: 9, direction: 'out', turn_id: null, created_at: '2026-01-01T00:00:00Z', base64: btoa('quarterly') }),
    }));
    // A conversation exists only once it has a message: this one was started elsewhere, then opened here.
    daemon.rows.push({ id: 'c1', title: 'Files', created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-01T00:00:00.000Z' });
    await act(async () => daemon.emit('c1', 'conversation.created', { id: 'c1', title: 'Files' }));
    await act(async () => fireEvent.click(within(screen.getByRole('list', { name: 'Conversations' })).getByRole('button', { name: /Files/ })));
    await act(later);
    await act(async () => daemon.emit('c1', 'chat.attachment', { conversation_id: 'c1', id: 'F1', filename: 'report.txt', mime_type: 'text/plain', kind: 'document', bytes: 9, caption: null }));
    const card = await screen.findByRole('region', { name: 'Attachment report.txt' });
    await act(async () => fireEvent.click(within(card).getByRole('button', { name: 'Download report.txt' })));
    await act(later);
    expect(daemon.calls.filter((call) => call.method === 'attachments.get').map((call) => call.input)).toEqual([{ id: 'F1' }]);
    expect(clicked).toEqual([{ download: 'report.txt', href: 'blob:test/1' }]);
    expect(await created[0].text()).toBe('quarterly');
  });
});
