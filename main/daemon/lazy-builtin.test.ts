import { describe, expect, it } from 'vitest';
import * as zlib from 'node:zlib';
import { lazyBuiltin } from './lazy-builtin.js';

describe('lazyBuiltin', () => {
  it('hands back the built-in itself, the same object on every call', () => {
    const get = lazyBuiltin<typeof import('node:zlib')>('node:zlib');
    expect(get().gunzipSync).toBe(zlib.gunzipSync);
    expect(get()).toBe(get());
    expect(get().gunzipSync(zlib.gzipSync('round trip')).toString()).toBe('round trip');
  });

  it('loads nothing until called, and fails at the call for a name that is not a built-in', () => {
    const missing = lazyBuiltin('node:no-such-module');
    expect(() => missing()).toThrow(/no-such-module/);
  });
});
