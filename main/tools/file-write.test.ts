import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileWrite } from './file-write.js';
import { failureOf, makeToolFixture, run, type ToolFixture } from './tool-test-fixture.js';

let fx: ToolFixture;
beforeAll(() => {
  fx = makeToolFixture('fermix-file-write-');
});
afterAll(async () => fx?.dispose());

const write = (args: Record<string, unknown>, ctx = fx.context()) => run(fileWrite.executor, args, ctx);

describe('file_write executor', () => {
  it('writes a new file, creating missing folders by default, and reports the byte count', async () => {
    const result = await write({ path: 'notes/deep/todo.md', content: 'héllo\n' });
    const target = path.join(fx.workspace, 'notes', 'deep', 'todo.md');
    expect(result.text).toBe(`Wrote 7 bytes to ${target}`);
    expect(readFileSync(target, 'utf8')).toBe('héllo\n');
    // No temp file is left behind.
    expect(readdirSync(path.dirname(target))).toEqual(['todo.md']);
  });

  it('overwrites atomically and keeps the mode of the file it replaces', async () => {
    const target = path.join(fx.workspace, 'run.sh');
    writeFileSync(target, 'old');
    chmodSync(target, 0o750);
    await write({ path: target, content: '#!/bin/sh\necho new\n' });
    expect(readFileSync(target, 'utf8')).toBe('#!/bin/sh\necho new\n');
    expect(statSync(target).mode & 0o777).toBe(0o750);
  });

  it('writes through a symlink to its target inside the roots, leaving the link in place', async () => {
    const real = path.join(fx.workspace, 'real.txt');
    writeFileSync(real, 'a');
    symlinkSync(real, path.join(fx.workspace, 'link.txt'));
    const result = await write({ path: 'link.txt', content: 'b' });
    expect(result.text).toBe(`Wrote 1 bytes to ${real}`);
    expect(readFileSync(real, 'utf8')).toBe('b');
  });

  it('fails write_failed when mkdir is false and the folder is missing', async () => {
    const error = await failureOf(write({ path: 'missing/dir/x.txt', content: 'x', mkdir: false }));
    expect(error.code).toBe('write_failed');
    expect(error.hint).toContain('mkdir: true');
  });

  it('fails invalid_path for a folder, NUL bytes; missing_parameters without content', async () => {
    mkdirSync(path.join(fx.workspace, 'adir'), { recursive: true });
    expect((await failureOf(write({ path: 'adir', content: 'x' }))).code).toBe('invalid_path');
    expect((await failureOf(write({ path: 'a\0b', content: 'x' }))).code).toBe('invalid_path');
    expect((await failureOf(write({ path: 'x.txt' }))).code).toBe('missing_parameters');
    expect((await failureOf(write({ content: 'x' }))).code).toBe('missing_parameters');
  });

  it('refuses outside the roots with a hint naming `fermix grant path <dir>`', async () => {
    const error = await failureOf(write({ path: path.join(fx.outside, 'new.txt'), content: 'x' }));
    expect(error.code).toBe('sandbox_denied');
    expect(error.hint).toContain(`fermix grant path ${fx.outside}`);
    expect(readdirSync(fx.outside)).toEqual(['notes.txt']);
  });

  it('refuses protected paths and dangling symlinks that lead out', async () => {
    expect((await failureOf(write({ path: path.join(fx.fermixHome, 'config.toml'), content: 'x' }))).data).toMatchObject({ reason: 'protected_path' });
    symlinkSync(path.join(fx.outside, 'planted.txt'), path.join(fx.workspace, 'dangling'));
    expect((await failureOf(write({ path: 'dangling', content: 'x' }))).data).toMatchObject({ reason: 'outside_root' });
    expect(readdirSync(fx.outside)).toEqual(['notes.txt']);
  });
});
