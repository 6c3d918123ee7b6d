import { describe, expect, it } from 'vitest';
import { firstWords } from './first-words.js';

describe('firstWords', () => {
  it('keeps a short first line, cuts a long one at a word, and never returns nothing', () => {
    expect(firstWords('When can I plant tomatoes?\nMore detail')).toBe('When can I plant tomatoes?');
    expect(firstWords('Look at the files in my workspace and suggest how to organise them.')).toBe('Look at the files in my workspace and suggest…');
    expect(firstWords('x'.repeat(80))).toBe(`${'x'.repeat(49)}…`);
    expect(firstWords('   ')).toBe('New conversation');
  });
});
