/**
 * RFC 6901 JSON Pointers as the hosted rail uses them: the RFC's own examples (§5), escapes in the
 * right order, invalid pointers refused, and for generated documents and tokens: encode → parse is the
 * identity, a write is read back, the input is never mutated, a blocked way is reported, not overwritten.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parsePointer, readPointer, writePointer } from './json-pointer.js';

const encode = (tokens: readonly string[]) => tokens.map((token) => `/${token.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');

describe('JSON pointer', () => {
  it("reads RFC 6901 §5's examples", () => {
    const doc = { foo: ['bar', 'baz'], '': 0, 'a/b': 1, 'c%d': 2, 'e^f': 3, 'g|h': 4, 'i\\j': 5, 'k"l': 6, ' ': 7, 'm~n': 8 };
    const at = (pointer: string) => readPointer(doc, parsePointer(pointer)!);
    expect(at('')).toBe(doc);
    expect([at('/foo'), at('/foo/0'), at('/'), at('/a~1b'), at('/c%d'), at('/e^f'), at('/g|h'), at('/i\\j'), at('/k"l'), at('/ '), at('/m~0n')]).toEqual([['bar', 'baz'], 'bar', 0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(parsePointer('/~01')).toEqual(['~1']);
  });

  it('refuses what is not a pointer, and reads nothing through a missing, leading-zero, "-" or inherited step', () => {
    for (const bad of ['foo', '/a~', '/a~2', '#/foo']) expect(parsePointer(bad), bad).toBeNull();
    expect([readPointer({ a: [1, 2] }, ['a', '01']), readPointer({ a: [1] }, ['a', '-']), readPointer({}, ['toString']), readPointer({ a: 'text' }, ['a', 'length'])]).toEqual([undefined, undefined, undefined, undefined]);
  });

  it('encode → parse is the identity, and a write is read back without touching the input', () => {
    const token = fc.string({ maxLength: 6 }).filter((text) => text !== '__proto__');
    fc.assert(fc.property(fc.array(token, { minLength: 1, maxLength: 4 }), fc.integer(), fc.object(), (tokens, value, doc) => {
      expect(parsePointer(encode(tokens))).toEqual(tokens);
      const before = JSON.stringify(doc);
      const written = writePointer(doc, tokens, value);
      expect(JSON.stringify(doc)).toBe(before);
      if (written !== null) expect(readPointer(written, tokens)).toBe(value);
    }));
  });

  it('creates missing objects on the way, but refuses to step through a value or past an array end', () => {
    expect(writePointer({}, ['page', 'limit'], 5)).toEqual({ page: { limit: 5 } });
    expect(writePointer({ list: [{}, {}] }, ['list', '1', 'n'], 2)).toEqual({ list: [{}, { n: 2 }] });
    expect(writePointer({ page: 'first' }, ['page', 'limit'], 5)).toBeNull();
    expect(writePointer({ list: [] }, ['list', '0'], 5)).toBeNull();
    expect(writePointer({ a: 1 }, [], 5)).toBeNull();
  });
});
