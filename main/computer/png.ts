/**
 * Screenshots for the model: crop, box-downscale and PNG-encode raw screen pixels with node:zlib only.
 * nut-js pulls in jimp, but only as its own dependency; importing a transitive package would break the
 * day nut-js drops it, and the encoder is forty lines.
 */
import { createHash } from 'node:crypto';
import { lazyBuiltin } from '../daemon/lazy-builtin.js';

/** Raw pixels as a backend hands them over: 3 or 4 bytes per pixel, red/green/blue order given by `bgr`. */
export interface RawImage {
  width: number;
  height: number;
  channels: number;
  bgr: boolean;
  data: Buffer;
}

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Packed RGB, 3 bytes per pixel. */
export interface RgbImage {
  width: number;
  height: number;
  data: Buffer;
}

/** Crops `rect` (in raw pixels, clamped to the image) and averages each output pixel's source box. */
export function cropAndScale(image: RawImage, rect: Rect, outWidth: number, outHeight: number): RgbImage {
  const x0 = Math.max(0, Math.min(image.width - 1, Math.floor(rect.x)));
  const y0 = Math.max(0, Math.min(image.height - 1, Math.floor(rect.y)));
  const w = Math.max(1, Math.min(image.width - x0, Math.floor(rect.w)));
  const h = Math.max(1, Math.min(image.height - y0, Math.floor(rect.h)));
  const out = Buffer.alloc(outWidth * outHeight * 3);
  const red = image.bgr ? 2 : 0;
  const blue = image.bgr ? 0 : 2;
  for (let oy = 0; oy < outHeight; oy += 1) {
    const sy0 = y0 + Math.floor((oy * h) / outHeight);
    const sy1 = Math.max(sy0 + 1, y0 + Math.floor(((oy + 1) * h) / outHeight));
    for (let ox = 0; ox < outWidth; ox += 1) {
      const sx0 = x0 + Math.floor((ox * w) / outWidth);
      const sx1 = Math.max(sx0 + 1, x0 + Math.floor(((ox + 1) * w) / outWidth));
      let r = 0;
      let g = 0;
      let b = 0;
      let n = 0;
      for (let sy = sy0; sy < sy1; sy += 1) {
        let offset = (sy * image.width + sx0) * image.channels;
        for (let sx = sx0; sx < sx1; sx += 1) {
          r += image.data[offset + red];
          g += image.data[offset + 1];
          b += image.data[offset + blue];
          n += 1;
          offset += image.channels;
        }
      }
      const target = (oy * outWidth + ox) * 3;
      out[target] = Math.round(r / n);
      out[target + 1] = Math.round(g / n);
      out[target + 2] = Math.round(b / n);
    }
  }
  return { width: outWidth, height: outHeight, data: out };
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n += 1) {
    let c = n;
    for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(buffer: Buffer): number {
  let c = 0xffffffff;
  for (const byte of buffer) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, body: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(body.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), body])), 0);
  return Buffer.concat([head, body, crc]);
}

/** 8-bit truecolour PNG; filter type 1 (Sub) per row, which halves the size of flat UI screenshots. */
// node:zlib loads with the first screenshot.
const zlib = lazyBuiltin<typeof import('node:zlib')>('node:zlib');

export function encodePng(image: RgbImage): Buffer {
  const stride = image.width * 3;
  const filtered = Buffer.alloc((stride + 1) * image.height);
  for (let y = 0; y < image.height; y += 1) {
    const row = y * (stride + 1);
    filtered[row] = 1;
    for (let i = 0; i < stride; i += 1) {
      const current = image.data[y * stride + i];
      const left = i >= 3 ? image.data[y * stride + i - 3] : 0;
      filtered[row + 1 + i] = (current - left) & 0xff;
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(image.width, 0);
  header.writeUInt32BE(image.height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib().deflateSync(filtered, { level: 6 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Identity of what is on screen, to tell "the view changed" without keeping whole frames. */
export function fingerprint(image: RawImage): string {
  return createHash('sha1').update(image.data).digest('hex');
}
