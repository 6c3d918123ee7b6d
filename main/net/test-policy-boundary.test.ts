import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The loopback-opening policy must stay a test-only tool: any non-test source that mints one (or imports
 * the file to do so) could switch SSRF protection off in the product. The guard itself reads the WeakSet
 * through isMintedTestPolicy, which opens nothing on its own.
 */
const REPO = fileURLToPath(new URL('../../', import.meta.url));
const ROOTS = ['main', 'renderer', 'preload', 'bench', 'scripts', 'e2e', 'test', 'bin'];
const SOURCE = /\.(?:ts|tsx|mts|cts|js|mjs|cjs)$/u;
const TEST_FILE = /\.test\.(?:ts|tsx)$/u;
// Non-test files allowed to import test-policy: the guard's own check, and the test-only support module.
const ALLOWED_IMPORTERS = new Set(['main/net/url-policy.ts', 'main/net/test-policy.ts']);

async function sources(dir: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const nested = await Promise.all(entries.map(async (entry) => {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return SOURCE.test(entry.name) ? [path] : [];
  }));
  return nested.flat();
}

export function violations(files: Array<{ path: string; text: string }>): string[] {
  return files
    .filter(({ path }) => !TEST_FILE.test(path))
    .flatMap(({ path, text: raw }) => {
      // Comments may name the function (docs say where loopback opens); only code counts.
      const text = raw.replace(/\/\*[\s\S]*?\*\//gu, '').replace(/(^|[^:])\/\/.*$/gmu, '$1');
      const found: string[] = [];
      if (path !== 'main/net/test-policy.ts' && /\bcreateTestPolicy\b/u.test(text)) found.push(`${path} calls createTestPolicy`);
      if (!ALLOWED_IMPORTERS.has(path) && /from\s+['"][^'"]*test-policy(?:\.js)?['"]/u.test(text)) found.push(`${path} imports test-policy`);
      return found;
    });
}

describe('test-policy boundary', () => {
  it('finds a violation when product code mints a test policy (the check can fail)', () => {
    expect(violations([{ path: 'main/tools/web-fetch.ts', text: "import { createTestPolicy } from '../net/test-policy.js';" }]))
      .toEqual(['main/tools/web-fetch.ts calls createTestPolicy', 'main/tools/web-fetch.ts imports test-policy']);
    expect(violations([{ path: 'main/tools/web-fetch.test.ts', text: 'createTestPolicy()' }])).toEqual([]);
    expect(violations([{ path: 'main/tools/web-fetch.ts', text: '/** see createTestPolicy */ // createTestPolicy()' }])).toEqual([]);
  });

  it('no non-test source in the repository mints or imports the test policy', async () => {
    const paths = (await Promise.all(ROOTS.map((root) => sources(join(REPO, root))))).flat();
    expect(paths.length).toBeGreaterThan(10);
    const files = await Promise.all(paths.map(async (path) => ({
      path: relative(REPO, path).split('\\').join('/'),
      text: await readFile(path, 'utf8'),
    })));
    expect(violations(files)).toEqual([]);
  });
});
