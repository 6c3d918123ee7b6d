// Raw transport clients for the security suites: hand-written WebSocket frames over a net.Socket
// (so a test can send what no WebSocket library would), raw HTTP requests and raw control frames.
import { connect, type Socket } from 'node:net';
import { randomBytes } from 'node:crypto';

export interface FrameSpec {
  opcode: number;
  payload?: Buffer;
  fin?: boolean;
  /** RSV1..3 as a 3-bit number (RSV1 = 4). */
  rsv?: number;
  /** Clients must mask; false sends a protocol violation. */
  masked?: boolean;
  /** Declared length when it should differ from the payload (oversize headers). */
  declaredLength?: bigint;
}

export function encodeClientFrame(spec: FrameSpec): Buffer {
  const payload = spec.payload ?? Buffer.alloc(0);
  const masked = spec.masked ?? true;
  const length = spec.declaredLength ?? BigInt(payload.length);
  const first = ((spec.fin ?? true) ? 0x80 : 0) | ((spec.rsv ?? 0) << 4) | (spec.opcode & 0x0f);
  let header: Buffer;
  if (length < 126n) header = Buffer.from([first, Number(length)]);
  else if (length < 65536n) {
    header = Buffer.alloc(4);
    header[0] = first;
    header[1] = 126;
    header.writeUInt16BE(Number(length), 2);
  } else {
    header = Buffer.alloc(10);
    header[0] = first;
    header[1] = 127;
    header.writeBigUInt64BE(length, 2);
  }
  if (masked) header[1] |= 0x80;
  if (!masked) return Buffer.concat([header, payload]);
  const mask = randomBytes(4);
  const body = Buffer.from(payload);
  for (let i = 0; i < body.length; i += 1) body[i] ^= mask[i % 4];
  return Buffer.concat([header, mask, body]);
}

export interface RawWebSocket {
  socket: Socket;
  /** Text payloads of data frames the daemon sent. */
  texts: string[];
  /** Resolves with the close code of the daemon's close frame, or null if the TCP connection just ended. */
  closed: Promise<number | null>;
  send(bytes: Buffer): void;
}

/** Upgrades /api/events with the bearer token over a raw socket, then parses the daemon's (unmasked) frames. */
export function openRawWebSocket(port: number, token: string, authHeader = `Authorization: Bearer ${token}`): Promise<RawWebSocket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => {}); // the daemon may reset us mid-write; that is the point of some tests
    const texts: string[] = [];
    let closeCode: number | null = null;
    let resolveClosed!: (code: number | null) => void;
    const closed = new Promise<number | null>((r) => (resolveClosed = r));
    let buffer = Buffer.alloc(0);
    let upgraded = false;
    socket.on('close', () => {
      resolveClosed(closeCode);
      if (!upgraded) reject(new Error(`no upgrade: ${buffer.toString('latin1').slice(0, 200)}`));
    });
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      if (!upgraded) {
        const end = buffer.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = buffer.subarray(0, end).toString('latin1');
        if (!head.startsWith('HTTP/1.1 101')) return reject(new Error(`upgrade refused: ${head}`));
        upgraded = true;
        buffer = buffer.subarray(end + 4);
        resolve({ socket, texts, closed, send: (bytes) => void (socket.writable && socket.write(bytes)) });
      }
      while (buffer.length >= 2) {
        const opcode = buffer[0] & 0x0f;
        let length = buffer[1] & 0x7f;
        let offset = 2;
        if (length === 126) {
          if (buffer.length < 4) return;
          length = buffer.readUInt16BE(2);
          offset = 4;
        } else if (length === 127) {
          if (buffer.length < 10) return;
          length = Number(buffer.readBigUInt64BE(2));
          offset = 10;
        }
        if (buffer.length < offset + length) return;
        const payload = buffer.subarray(offset, offset + length);
        buffer = buffer.subarray(offset + length);
        if (opcode === 0x1) texts.push(payload.toString('utf8'));
        if (opcode === 0x8) closeCode = payload.length >= 2 ? payload.readUInt16BE(0) : 1005;
      }
    });
    const key = randomBytes(16).toString('base64');
    socket.write(`GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n${authHeader}\r\n\r\n`);
  });
}

/** Waits for the close, or gives up after `ms` (the daemon may legitimately wait for more bytes). */
export function closedWithin(ws: RawWebSocket, ms: number): Promise<number | null | 'open'> {
  return Promise.race([ws.closed, new Promise<'open'>((r) => setTimeout(() => r('open'), ms))]);
}

/** Sends raw bytes as an HTTP request and returns the status code of the answer (0: no answer, connection closed). */
export function rawHttp(port: number, bytes: Buffer | string, ms = 3000, halfClose = false): Promise<{ status: number; text: string }> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      const match = /^HTTP\/1\.1 (\d{3})/.exec(text);
      resolve({ status: match ? Number(match[1]) : 0, text });
    };
    const timer = setTimeout(done, ms);
    socket.on('error', () => {});
    socket.on('data', (chunk) => {
      text += chunk.toString('latin1');
      // One answer is enough: stop at the end of the first response body we can delimit.
      const end = text.indexOf('\r\n\r\n');
      const length = /content-length: (\d+)/i.exec(text);
      if (end >= 0 && length && text.length >= end + 4 + Number(length[1])) done();
    });
    socket.on('close', done);
    // Half-closing says "that was all": a server waiting for a longer declared body gives up at once.
    if (halfClose) socket.end(bytes);
    else socket.write(bytes);
  });
}

/** Sends raw bytes to the control socket and returns whatever came back before the daemon closed. */
export function rawControl(path: string, bytes: Buffer, ms = 3000): Promise<{ reply: Buffer; closed: boolean }> {
  return new Promise((resolve) => {
    const socket = connect(path);
    const chunks: Buffer[] = [];
    let closed = false;
    const timer = setTimeout(() => finish(), ms);
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ reply: Buffer.concat(chunks), closed });
    };
    socket.on('error', () => {});
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('close', () => {
      closed = true;
      finish();
    });
    socket.write(bytes);
  });
}

/** The JSON of a reply frame (4-byte length + body), or undefined. */
export function replyFrame(reply: Buffer): { error?: { code: string; message: string; hint: string }; result?: unknown } | undefined {
  if (reply.length < 4) return undefined;
  const length = reply.readUInt32BE(0);
  return JSON.parse(reply.subarray(4, 4 + length).toString('utf8'));
}
