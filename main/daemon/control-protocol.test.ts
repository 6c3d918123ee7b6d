import { describe, expect, it } from 'vitest';
import { createServer, connect, type Socket } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFrameReader, decodeFrameBody, encodeFrame, MAX_FRAME_BYTES, readFrame } from './control-protocol.js';

/** A real socket pair over a Unix socket: `write` feeds bytes to the side readFrame reads. */
async function pair(): Promise<{ reader: Socket; writer: Socket; close: () => void }> {
  const path = join(mkdtempSync(join(tmpdir(), 'fermix-frame-')), 's.sock');
  let accepted!: Socket;
  const server = createServer((socket) => (accepted = socket));
  await new Promise<void>((resolve) => server.listen(path, resolve));
  const writer = connect(path);
  await new Promise((resolve) => writer.once('connect', resolve));
  while (!accepted) await new Promise((resolve) => setTimeout(resolve, 5));
  return { reader: accepted, writer, close: () => { writer.destroy(); accepted.destroy(); server.close(); } };
}

describe('control socket framing', () => {
  it('reads a frame that arrives one byte at a time', async () => {
    const { reader, writer, close } = await pair();
    const frame = encodeFrame({ request_id: 'r', method: 'system.status', params: { text: 'é✓' } });
    const reading = readFrame(reader);
    for (const byte of frame) writer.write(Buffer.from([byte]));
    await expect(reading).resolves.toEqual({ request_id: 'r', method: 'system.status', params: { text: 'é✓' } });
    close();
  });

  it('refuses a declared length past 4 MiB from the header alone, with frame_too_large', async () => {
    const { reader, writer, close } = await pair();
    const header = Buffer.alloc(4);
    header.writeUInt32BE(MAX_FRAME_BYTES + 1, 0);
    const reading = readFrame(reader);
    writer.write(header);
    await expect(reading).rejects.toMatchObject({ code: 'frame_too_large', data: { max_bytes: MAX_FRAME_BYTES } });
    close();
  });

  it('names a truncated frame invalid_request', async () => {
    const { reader, writer, close } = await pair();
    const reading = readFrame(reader);
    writer.end(encodeFrame({ a: 1 }).subarray(0, 6));
    await expect(reading).rejects.toMatchObject({ code: 'invalid_request', message: expect.stringContaining('ended') });
    close();
  });

  it('refuses invalid UTF-8 and invalid JSON instead of guessing', () => {
    expect(() => decodeFrameBody(Buffer.from([0x7b, 0xff, 0x7d]))).toThrow(expect.objectContaining({ code: 'invalid_request', message: expect.stringContaining('UTF-8') }));
    expect(() => decodeFrameBody(Buffer.from('{"a":'))).toThrow(expect.objectContaining({ code: 'invalid_request', message: expect.stringContaining('JSON') }));
    expect(() => decodeFrameBody(Buffer.alloc(0))).toThrow(expect.objectContaining({ code: 'invalid_request' }));
  });

  it('will not encode a frame past the cap', () => {
    expect(() => encodeFrame({ blob: 'x'.repeat(MAX_FRAME_BYTES) })).toThrow(expect.objectContaining({ code: 'frame_too_large' }));
  });

  it('a frame reader reads many frames: several per chunk, and one split byte by byte', async () => {
    const { reader, writer, close } = await pair();
    const frames = createFrameReader(reader);
    writer.write(Buffer.concat([encodeFrame({ n: 1 }), encodeFrame({ n: 2 }), encodeFrame({ n: 3 }).subarray(0, 5)]));
    await expect(frames.next()).resolves.toEqual({ n: 1 });
    await expect(frames.next()).resolves.toEqual({ n: 2 });
    const third = frames.next();
    for (const byte of encodeFrame({ n: 3 }).subarray(5)) writer.write(Buffer.from([byte]));
    await expect(third).resolves.toEqual({ n: 3 });
    writer.end();
    await expect(frames.next()).resolves.toBeNull();
    close();
  });

  it('a frame reader refuses an oversize header and a connection that ends mid-frame', async () => {
    const big = await pair();
    const header = Buffer.alloc(4);
    header.writeUInt32BE(MAX_FRAME_BYTES + 1, 0);
    const frames = createFrameReader(big.reader);
    big.writer.write(header);
    await expect(frames.next()).rejects.toMatchObject({ code: 'frame_too_large' });
    big.close();

    const cut = await pair();
    const cutFrames = createFrameReader(cut.reader);
    cut.writer.end(encodeFrame({ a: 1 }).subarray(0, 6));
    await expect(cutFrames.next()).rejects.toMatchObject({ code: 'invalid_request', message: expect.stringContaining('ended') });
    cut.close();
  });
});
