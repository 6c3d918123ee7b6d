/**
 * Property tests: whatever the bytes, a decision comes back — no exception, no endless loop — from
 * both readers, and a catastrophic command never disappears when harmless shell noise is put
 * after it on its own line (a broken tail must not hide what comes before it).
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { explainHardline, loadHardline } from '../hardline.js';
import { ansiC } from './words.js';

const context = { home: '/home/ana', fermixHome: '/home/ana/.fermix', cwd: '/home/ana/.fermix/workspace' };

const FRAGMENTS = [
  '$(', ')', '(', '"', "'", '`', '${', '}', '{', '$((', '))', '<<EOF\n', 'EOF\n', "<<'X'\n", 'X\n', '<<<', '<(', '>(', '|', '||', '&', '&&', ';', ';;',
  '\n', '\\\n', '\\', '#', ' ', '\t', '*', '?', '[', ']', ',', '~', '$', '=', 'a', 'rm', '-rf', '/', 'sh', '-c', 'echo', 'case', 'in', 'esac', 'if', 'then',
  'fi', 'while', 'do', 'done', 'for', 'function', 'f()', 'x#', '2>', '>', '<', '>&', '$\'', '$"', 'é', '🎉',
];
const shellish = fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 40 }).map((parts) => parts.join(''));
const anyText = fc.string({ unit: fc.constantFrom(...'$()"\'`{}[]|&;<>\\#*?~!= \n\tabrm-/'.split('')), maxLength: 60 });

beforeAll(async () => {
  await loadHardline();
});

describe('hardline on arbitrary input', () => {
  // Found by the property below (seed 833856085): `$'\x#` made the word reader throw (NaN code point).
  it('reads ANSI-C escapes without digits or past U+10FFFF as written, and still sees rm -rf / before them', () => {
    expect(ansiC('\\x#')).toBe('\\x#');
    expect(ansiC('\\u')).toBe('\\u');
    expect(ansiC('\\UFFFFFFFF')).toBe('\\UFFFFFFFF');
    expect(ansiC('\\x41\\u00e9\\U0001F389')).toBe('Aé🎉');
    for (const tail of ["$'\\x#", "$'\\u'", "$'\\UFFFFFFFF'"]) {
      for (const parser of [true, false]) expect(explainHardline(`rm -rf /\n${tail}`, context, { parser }).hit?.rule).toBeDefined();
    }
  });

  it('always decides, with the parser and with the linear reader alone', () => {
    fc.assert(
      fc.property(fc.oneof(shellish, anyText), (command) => {
        const withParser = explainHardline(command, context);
        const alone = explainHardline(command, context, { parser: false });
        expect(withParser.readers).toContain('scan');
        expect(alone.readers).not.toContain('tree');
      }),
      { numRuns: 3000 },
    );
  });

  it('never lets a broken tail on a later line hide rm -rf / before it', () => {
    fc.assert(
      fc.property(shellish, (tail) => {
        expect(explainHardline(`rm -rf /\n${tail}`, context).hit?.rule).toBeDefined();
      }),
      { numRuns: 1500 },
    );
  });
});
