import { describe, expect, it } from 'vitest';
import { bodyKind, decodeBody, parseMediaType, prettyJson } from './body-text.js';

describe('parseMediaType and bodyKind', () => {
  it('parses essence and charset', () => {
    expect(parseMediaType('Text/HTML; Charset="ISO-8859-1"')).toEqual({ essence: 'text/html', charset: 'iso-8859-1' });
    expect(parseMediaType(undefined)).toEqual({ essence: '', charset: undefined });
  });

  it.each([
    ['application/json', 'json'], ['application/problem+json', 'json'], ['text/html', 'html'],
    ['application/xhtml+xml', 'html'], ['text/plain', 'text'], ['text/markdown', 'text'], ['application/xml', 'text'],
    ['application/atom+xml', 'text'], ['application/javascript', 'text'], ['image/png', 'binary'],
    ['application/pdf', 'binary'], ['application/octet-stream', 'binary'], ['application/zip', 'binary'],
  ])('classifies %s as %s', (type, kind) => {
    expect(bodyKind(parseMediaType(type), Buffer.from('x'))).toBe(kind);
  });

  it('sniffs only when no type was declared', () => {
    const none = parseMediaType(undefined);
    expect(bodyKind(none, Buffer.from('  <!DOCTYPE html><p>x'))).toBe('html');
    expect(bodyKind(none, Buffer.from('{"a":1}'))).toBe('json');
    expect(bodyKind(none, Buffer.from('plain words'))).toBe('text');
    expect(bodyKind(none, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]))).toBe('binary');
  });
});

describe('decodeBody', () => {
  const utf8 = parseMediaType('text/plain');
  it('replaces invalid UTF-8 with U+FFFD', () => {
    expect(decodeBody(Buffer.from([0x61, 0xff, 0xfe, 0x62]), utf8, 'text', false)).toBe('a\ufffd\ufffdb');
  });

  it('drops a multi-byte character cut by truncation instead of inventing U+FFFD', () => {
    const euro = Buffer.from('ab€', 'utf8');
    expect(decodeBody(euro.subarray(0, 4), utf8, 'text', true)).toBe('ab');
    expect(decodeBody(euro.subarray(0, 4), utf8, 'text', false)).toBe('ab\ufffd');
  });

  it('honours a declared charset, a meta charset, and falls back to UTF-8 for unknown labels', () => {
    const latin1 = Buffer.from([0x63, 0x61, 0x66, 0xe9]);
    expect(decodeBody(latin1, parseMediaType('text/plain; charset=iso-8859-1'), 'text', false)).toBe('café');
    const html = Buffer.concat([Buffer.from('<meta charset="windows-1252"><p>'), latin1]);
    expect(decodeBody(html, parseMediaType('text/html'), 'html', false)).toContain('café');
    expect(decodeBody(Buffer.from('ok'), parseMediaType('text/plain; charset=klingon'), 'text', false)).toBe('ok');
  });
});

describe('prettyJson', () => {
  it('indents valid JSON without re-serialising values', () => {
    const text = '{"id":12345678901234567890,"s":"a,b:{c}\\"","e":[],"o":{},"n":[1,{"x":null}]}';
    expect(prettyJson(text)).toBe([
      '{',
      '  "id": 12345678901234567890,',
      '  "s": "a,b:{c}\\"",',
      '  "e": [],',
      '  "o": {},',
      '  "n": [',
      '    1,',
      '    {',
      '      "x": null',
      '    }',
      '  ]',
      '}',
    ].join('\n'));
    expect(JSON.parse(prettyJson(text))).toEqual(JSON.parse(text));
  });

  it('returns invalid or truncated JSON verbatim', () => {
    expect(prettyJson('{"a": [1, 2')).toBe('{"a": [1, 2');
  });
});
