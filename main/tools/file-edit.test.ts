import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countOccurrences, fileEdit } from './file-edit.js';
import { failureOf, makeToolFixture, run, type ToolFixture } from './tool-test-fixture.js';

let fx: ToolFixture;
beforeAll(() => {
  fx = makeToolFixture('fermix-file-edit-');
});
afterAll(async () => fx?.dispose());

const edit = (args: Record<string, unknown>, ctx = fx.context()) => run(fileEdit.executor, args, ctx);

describe('file_edit executor', () => {
  it('replaces one exact unique span, atomically, keeping the file mode', async () => {
    const target = path.join(fx.workspace, 'app.toml');
    writeFileSync(target, 'name = "x"\nport = 8080\n');
    chmodSync(target, 0o640);
    const result = await edit({ path: 'app.toml', old_string: 'port = 8080', new_string: 'port = 9090' });
    expect(result.text).toMatch(/^Edited .*app\.toml: replaced 1 occurrence at line 2/);
    expect(readFileSync(target, 'utf8')).toBe('name = "x"\nport = 9090\n');
    expect(statSync(target).mode & 0o777).toBe(0o640);
  });

  it('deletes with an empty new_string and leaves non-UTF-8 bytes elsewhere untouched', async () => {
    const target = path.join(fx.workspace, 'latin1.txt');
    writeFileSync(target, Buffer.concat([Buffer.from([0xe9, 0x0a]), Buffer.from('remove me\nkeep\n')]));
    await edit({ path: target, old_string: 'remove me\n', new_string: '' });
    expect(readFileSync(target)).toEqual(Buffer.concat([Buffer.from([0xe9, 0x0a]), Buffer.from('keep\n')]));
  });

  it('fails not_unique with the number of occurrences, overlapping ones included', async () => {
    writeFileSync(path.join(fx.workspace, 'dup.txt'), 'x = 1\nx = 1\nx = 1\n');
    const error = await failureOf(edit({ path: 'dup.txt', old_string: 'x = 1', new_string: 'x = 2' }));
    expect(error.code).toBe('not_unique');
    expect(error.message).toContain('found 3 occurrences');
    expect(countOccurrences(Buffer.from('aaa'), Buffer.from('aa')).count).toBe(2);
    expect(readFileSync(path.join(fx.workspace, 'dup.txt'), 'utf8')).toBe('x = 1\nx = 1\nx = 1\n');
  });

  it('fails not_found for a missing span (with a CRLF hint) and for a missing file', async () => {
    writeFileSync(path.join(fx.workspace, 'win.txt'), 'a\r\nb\r\n');
    const span = await failureOf(edit({ path: 'win.txt', old_string: 'a\nb', new_string: 'c' }));
    expect(span.code).toBe('not_found');
    expect(span.hint).toContain('CRLF');
    expect((await failureOf(edit({ path: 'nope.txt', old_string: 'a', new_string: 'b' }))).code).toBe('not_found');
  });

  it('fails invalid_path for NUL bytes and folders', async () => {
    expect((await failureOf(edit({ path: 'a\0', old_string: 'a', new_string: 'b' }))).code).toBe('invalid_path');
    expect((await failureOf(edit({ path: '.', old_string: 'a', new_string: 'b' }))).code).toBe('invalid_path');
  });

  it('refuses outside the roots, suggesting request_directory_access', async () => {
    const error = await failureOf(edit({ path: path.join(fx.outside, 'notes.txt'), old_string: 'outside', new_string: 'inside' }));
    expect(error.code).toBe('sandbox_denied');
    expect(error.hint).toContain('request_directory_access');
    expect(readFileSync(path.join(fx.outside, 'notes.txt'), 'utf8')).toBe('outside the roots\n');
  });
});
