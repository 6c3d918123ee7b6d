import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { programName } from './program-name.js';

describe('programName', () => {
  it('is path.posix.basename for every word, with or without slashes', () => {
    const word = fc.oneof(fc.string({ maxLength: 30 }), fc.array(fc.constantFrom('/', 'a', 'rm', '.', '..', ' ', 'bin', ''), { maxLength: 8 }).map((parts) => parts.join('')));
    fc.assert(fc.property(word, (text) => {
      expect(programName(text)).toBe(path.posix.basename(text));
    }), { numRuns: 3000 });
    for (const text of ['/bin/rm', 'rm', '/usr/bin/', '/', '', './run.sh', 'a//b//']) expect(programName(text), text).toBe(path.posix.basename(text));
  });
});
