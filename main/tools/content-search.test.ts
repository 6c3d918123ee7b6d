import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentSearch } from './content-search.js';
import { failureOf, makeToolFixture, run, type ToolFixture } from './tool-test-fixture.js';

let fx: ToolFixture;
const ws = (...p: string[]) => path.join(fx.workspace, ...p);

beforeAll(() => {
  fx = makeToolFixture('fermix-content-');
  mkdirSync(ws('src'), { recursive: true });
  writeFileSync(ws('src/a.ts'), 'export function loadJob() {}\n// TODO: fix\nconst x = 1;   \n');
  writeFileSync(ws('src/b.ts'), 'no match here\r\nTODO(ana): later\r\n');
  writeFileSync(ws('src/c.bin'), Buffer.concat([Buffer.from('TODO'), Buffer.from([0, 1, 2])]));
  writeFileSync(ws('dots.txt'), 'a.c\nabc\n');
  writeFileSync(ws('redos.txt'), `${'a'.repeat(40)}!\n`);
  symlinkSync(path.join(fx.outside, 'notes.txt'), ws('src/outside-link.ts'));
});
afterAll(async () => fx?.dispose());

const search = (args: Record<string, unknown>, ctx = fx.context()) => run(contentSearch.executor, args, ctx);

describe('content_search executor', () => {
  it('finds literal text with paths and 1-based lines, trimming trailing whitespace and CR', async () => {
    const result = await search({ pattern: 'TODO', path: 'src' });
    expect(result.data).toEqual({
      matches: [
        { path: ws('src/a.ts'), line: 2, text: '// TODO: fix' },
        { path: ws('src/b.ts'), line: 2, text: 'TODO(ana): later' },
      ],
      truncated: false,
    });
    expect(result.text).toBe(`${ws('src/a.ts')}:2: // TODO: fix\n${ws('src/b.ts')}:2: TODO(ana): later`);
  });

  it('treats the pattern literally unless regex is true', async () => {
    expect(((await search({ pattern: 'a.c', path: 'dots.txt' })).data as { matches: unknown[] }).matches).toHaveLength(1);
    expect(((await search({ pattern: 'a.c', path: 'dots.txt', regex: true })).data as { matches: unknown[] }).matches).toHaveLength(2);
    const fn = await search({ pattern: 'export (async )?function \\w+Job', regex: true });
    expect((fn.data as { matches: Array<{ line: number }> }).matches).toEqual([expect.objectContaining({ line: 1 })]);
  });

  it('skips binary files and files a link leads to outside the roots', async () => {
    const result = await search({ pattern: 'TODO|outside', regex: true });
    const paths = (result.data as { matches: Array<{ path: string }> }).matches.map((m) => m.path);
    expect(paths).not.toContain(ws('src/c.bin'));
    expect(paths).not.toContain(ws('src/outside-link.ts'));
  });

  it('caps at max_results and says truncated', async () => {
    const result = await search({ pattern: 'TODO', max_results: 1 });
    expect(result.data).toMatchObject({ truncated: true, matches: [expect.anything()] });
  });

  it('returns an empty match list when nothing matches (not_found is not an error)', async () => {
    expect((await search({ pattern: 'zebra' })).data).toEqual({ matches: [], truncated: false });
  });

  it('fails invalid_regex for a pattern that does not compile', async () => {
    expect((await failureOf(search({ pattern: '(unclosed', regex: true }))).code).toBe('invalid_regex');
  });

  it('stops a catastrophic regex at timeout_ms without hanging the daemon', async () => {
    const started = Date.now();
    const error = await failureOf(search({ pattern: '^(a+)+$', regex: true, path: 'redos.txt', timeout_ms: 300 }));
    expect(error.code).toBe('timeout');
    expect(error.message).toContain('timed out after 300ms');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('refuses a root outside the sandbox and reports a missing one as not_found', async () => {
    expect((await failureOf(search({ pattern: 'x', path: fx.outside }))).code).toBe('sandbox_denied');
    expect((await failureOf(search({ pattern: 'x', path: 'missing-dir' }))).code).toBe('not_found');
  });
});
