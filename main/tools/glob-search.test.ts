import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileGlob } from './glob-pattern.js';
import { globSearch } from './glob-search.js';
import { failureOf, makeToolFixture, run, type ToolFixture } from './tool-test-fixture.js';

let fx: ToolFixture;
const ws = (...p: string[]) => path.join(fx.workspace, ...p);

beforeAll(() => {
  fx = makeToolFixture('fermix-glob-', { mode: 'open' });
  for (const dir of ['src/lib', 'docs', '.config', '.git/objects']) mkdirSync(ws(dir), { recursive: true });
  for (const file of ['src/a.ts', 'src/lib/b.ts', 'src/lib/c.test.ts', 'docs/x.md', '.env', '.config/app.ts', '.git/objects/z.ts', 'top.ts']) writeFileSync(ws(file), '');
  symlinkSync(path.join(fx.home, '.ssh', 'id_rsa'), ws('key-link.ts'));
  symlinkSync(ws('src'), ws('loop'));
});
afterAll(async () => fx?.dispose());

const glob = (args: Record<string, unknown>, ctx = fx.context()) => run(globSearch.executor, args, ctx);

describe('glob patterns', () => {
  it('compiles **, *, ?, classes and braces, splitting off the static prefix', () => {
    const g = compileGlob('src/**/*.{ts,tsx}');
    expect(g.staticPrefix).toBe('src');
    expect(['a.ts', 'lib/b.tsx', 'x/y/z.ts'].every((p) => g.regex.test(p))).toBe(true);
    expect(g.regex.test('a.js')).toBe(false);
    expect(compileGlob('file?.[!0-9]').regex.test('file1.a')).toBe(true);
    expect(compileGlob('file?.[!0-9]').regex.test('file1.5')).toBe(false);
    expect(compileGlob('*').regex.test('.env')).toBe(true);
    expect(() => compileGlob('{a,b')).toThrow(/not closed/);
  });
});

describe('glob_search executor', () => {
  it('finds files recursively, dotfiles included, skipping .git internals, shallow first', async () => {
    const result = await glob({ pattern: '**/*.ts' });
    expect(result.data).toEqual([ws('top.ts'), ws('.config/app.ts'), ws('src/a.ts'), ws('src/lib/b.ts'), ws('src/lib/c.test.ts')]);
    expect(await glob({ pattern: '.*' }).then((r) => r.data)).toEqual([ws('.env')]);
  });

  it('sandbox-filters matches: a link to a protected file is dropped, linked folders are not followed', async () => {
    const result = await glob({ pattern: '**/*' });
    const found = result.data as string[];
    expect(found).not.toContain(ws('key-link.ts'));
    expect(found.some((p) => p.startsWith(ws('loop')))).toBe(false);
  });

  it('never lists protected folders, even when searching the whole home in open mode', async () => {
    const result = await glob({ pattern: '**/*', path: fx.home, max_results: 1000 });
    const found = result.data as string[];
    expect(found).toContain(ws('docs/x.md'));
    expect(found.some((p) => p.includes(`${path.sep}.ssh${path.sep}`))).toBe(false);
    expect(found.some((p) => p.endsWith('config.toml') || p.endsWith('.bashrc') || p.includes('fermix.db'))).toBe(false);
  });

  it('honours path, a static prefix, absolute patterns and max_results', async () => {
    expect((await glob({ pattern: '*.md', path: 'docs' })).data).toEqual([ws('docs/x.md')]);
    expect((await glob({ pattern: 'src/lib/*.ts' })).data).toEqual([ws('src/lib/b.ts'), ws('src/lib/c.test.ts')]);
    expect((await glob({ pattern: `${fx.workspace}/src/*.ts` })).data).toEqual([ws('src/a.ts')]);
    const capped = await glob({ pattern: '**/*.ts', max_results: 2 });
    expect(capped.data).toHaveLength(2);
    expect(capped.text).toContain('Showing the first 2 matches');
  });

  it('returns an empty list (not an error) when nothing matches', async () => {
    const result = await glob({ pattern: '**/*.pdf' });
    expect(result.data).toEqual([]);
    expect(result.text).toMatch(/^No files matched/);
  });

  it('fails missing_pattern and invalid_path (outside the roots, missing root, ..)', async () => {
    expect((await failureOf(glob({ pattern: ' ' }))).code).toBe('missing_pattern');
    const strict = makeToolFixture('fermix-glob-strict-', { mode: 'strict' });
    try {
      const outside = await failureOf(run(globSearch.executor, { pattern: '*', path: strict.outside }, strict.context()));
      expect(outside.code).toBe('invalid_path');
      expect(outside.data).toMatchObject({ reason: 'outside_root', sandbox_code: 'sandbox_denied' });
    } finally {
      await strict.dispose();
    }
    expect((await failureOf(glob({ pattern: '*', path: 'no-such-dir' }))).code).toBe('invalid_path');
    expect((await failureOf(glob({ pattern: '../*' }))).code).toBe('invalid_path');
  });
});
