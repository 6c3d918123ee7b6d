import { symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileRead, MAX_READ_CHARS } from './file-read.js';
import { failureOf, makeToolFixture, run, type ToolFixture } from './tool-test-fixture.js';

let fx: ToolFixture;
beforeAll(() => {
  fx = makeToolFixture('fermix-file-read-');
  writeFileSync(path.join(fx.workspace, 'lines.txt'), Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n') + '\n');
  writeFileSync(path.join(fx.workspace, 'crlf.txt'), 'a\r\nb\r\n');
  writeFileSync(path.join(fx.workspace, 'blob.bin'), Buffer.from([0x89, 0x50, 0x00, 0x01, 0x02]));
  writeFileSync(path.join(fx.workspace, 'empty.txt'), '');
  writeFileSync(path.join(fx.workspace, 'huge-line.txt'), 'x'.repeat(MAX_READ_CHARS + 50));
  symlinkSync(path.join(fx.outside, 'notes.txt'), path.join(fx.workspace, 'escape.txt'));
});
afterAll(async () => fx?.dispose());

const read = (args: Record<string, unknown>, ctx = fx.context()) => run(fileRead.executor, args, ctx);

describe('file_read executor', () => {
  it('reads a whole file relative to the workspace', async () => {
    const result = await read({ path: 'hello.txt' });
    expect(result.text).toBe('hello');
    expect(result.data).toMatchObject({ path: path.join(fx.workspace, 'hello.txt'), total_lines: 1, truncated: false });
  });

  it('reads a window with a 1-based offset and a line limit, and says which lines it shows', async () => {
    const result = await read({ path: path.join(fx.workspace, 'lines.txt'), offset: 3, limit: 2 });
    expect(result.text).toBe('line 3\nline 4\n[Lines 3-4 of 10.]');
    expect(result.data).toMatchObject({ offset: 3, lines: 2, total_lines: 10, truncated: true });
  });

  it('handles CRLF, empty files, offsets past the end and binary files', async () => {
    expect((await read({ path: 'crlf.txt' })).text).toBe('a\nb');
    expect((await read({ path: 'empty.txt' })).text).toBe('');
    expect((await read({ path: 'lines.txt', offset: 50 })).text).toContain('offset 50 is past the end');
    expect((await read({ path: 'blob.bin' })).text).toMatch(/binary file \(5 bytes\)/);
  });

  it('caps one giant line and tells how to continue', async () => {
    const result = await read({ path: 'huge-line.txt' });
    expect(result.text.startsWith('x'.repeat(1000))).toBe(true);
    expect(result.text).toContain(`Truncated at ${MAX_READ_CHARS} characters`);
  });

  it('fails not_found, missing_path, invalid_path (NUL byte, folder)', async () => {
    expect((await failureOf(read({ path: 'nope.txt' }))).code).toBe('not_found');
    expect((await failureOf(read({ path: '  ' }))).code).toBe('missing_path');
    expect((await failureOf(read({ path: 'a\0b' }))).code).toBe('invalid_path');
    expect((await failureOf(read({ path: '.' }))).code).toBe('invalid_path');
  });

  it('refuses paths outside the roots, through symlinks, and protected paths, with the sandbox reason', async () => {
    const outside = await failureOf(read({ path: path.join(fx.outside, 'notes.txt') }));
    expect(outside.code).toBe('sandbox_denied');
    expect(outside.message).toMatch(/^Path is outside the sandbox roots: /);
    expect(outside.data).toMatchObject({ reason: 'outside_root' });
    expect((await failureOf(read({ path: 'escape.txt' }))).data).toMatchObject({ reason: 'outside_root' });
    expect((await failureOf(read({ path: path.join(fx.home, '.ssh', 'id_rsa') }))).data).toMatchObject({ reason: 'protected_path' });
    expect((await failureOf(read({ path: '../config.toml' }))).data).toMatchObject({ reason: 'protected_path' });
  });

  it('resolves relative paths against the request cwd only on a trusted local operator turn', async () => {
    const project = path.join(fx.home, 'projects', 'app');
    writeFileSync(path.join(project, 'README.md'), 'app readme\n');
    expect((await read({ path: 'README.md' }, fx.context({ origin: 'cli', cwd: project }))).text).toBe('app readme');
    // A guest (or a job) with the same cwd gets the workspace, where README.md does not exist.
    expect((await failureOf(read({ path: 'README.md' }, fx.context({ trust: 'guest', origin: 'cli', cwd: project })))).code).toBe('not_found');
    expect((await failureOf(read({ path: path.join(project, 'README.md') }, fx.context({ origin: 'job', cwd: project })))).code).toBe('sandbox_denied');
  });
});
