import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { ESLint } from 'eslint';
import { ROOT } from './support/daemon-process.js';

/**
 * The environment layering of ARCHITECTURE.md §2, re-derived from the source: each file's environment
 * comes from its folder, and every import is checked against what that environment may reach.
 * The second half proves the lint rules and tsconfigs still enforce the same table, so switching
 * one of them off fails here.
 */
type Environment = 'common' | 'node' | 'electron' | 'preload' | 'browser';

export function environmentOf(file: string): Environment | undefined {
  if (/^main\/(api|core)\//.test(file)) return 'common';
  if (file.startsWith('main/shell/')) return 'electron';
  if (file.startsWith('main/')) return 'node';
  if (file.startsWith('preload/')) return 'preload';
  if (file.startsWith('renderer/')) return 'browser';
  return undefined;
}

const NODE_BUILTINS = new Set([...builtinModules, ...builtinModules.map((name) => `node:${name}`)]);

export function importsOf(source: string): string[] {
  const found: string[] = [];
  const pattern = /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|import\s+['"]([^'"]+)['"]/g;
  for (const match of source.matchAll(pattern)) found.push(match[1] ?? match[2] ?? match[3]);
  return found;
}

/** Returns the violations of one file (path relative to the repo root). */
export function violationsOf(file: string, source: string): string[] {
  const environment = environmentOf(file);
  if (!environment) return [];
  const problems: string[] = [];
  for (const specifier of importsOf(source)) {
    const target = specifier.startsWith('.') ? relative(ROOT, resolve(ROOT, dirname(file), specifier)) : undefined;
    const isElectron = specifier === 'electron' || specifier.startsWith('electron/');
    const say = (why: string) => problems.push(`${file}: imports "${specifier}" — ${why}`);
    if (environment === 'common') {
      if (NODE_BUILTINS.has(specifier)) say('common code may not use Node built-ins');
      if (isElectron) say('common code may not use electron');
      if (/^react(-dom)?(\/|$)/.test(specifier)) say('common code may not use React');
      if (target && !/^main\/(api|core)\//.test(target)) say('common code may import only main/api and main/core');
    }
    if (environment === 'node') {
      if (isElectron) say('only main/shell may import electron');
      if (target?.startsWith('main/shell/')) say('node folders never import main/shell');
      if (file.startsWith('main/agent/') && !file.endsWith('.test.ts') && target?.startsWith('main/tools/')) say('the agent loop never imports a tool');
    }
    if (environment === 'browser') {
      if (NODE_BUILTINS.has(specifier) || isElectron) say('the renderer runs in a browser');
      if (target && !target.startsWith('renderer/') && !target.startsWith('main/api/') && target !== 'main/core/errors.js' && target !== 'main/core/errors') say('the renderer imports only main/api and main/core/errors');
    }
    if (environment === 'preload' && target && !target.startsWith('main/api/')) say('the preload imports only electron and main/api');
  }
  return problems;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(ROOT, dir))) {
    const path = join(dir, entry);
    if (statSync(join(ROOT, path)).isDirectory()) out.push(...sourceFiles(path));
    else if (/\.(ts|tsx)$/.test(entry) && !entry.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

describe('environment layering', () => {
  const files = ['main', 'preload', 'renderer'].flatMap((dir) => {
    try {
      return sourceFiles(dir);
    } catch {
      return [];
    }
  }).filter((file) => !(environmentOf(file) === 'common' && file.endsWith('.test.ts')));

  it('holds for every source file', () => {
    expect(files.length).toBeGreaterThan(20);
    const problems = files.flatMap((file) => violationsOf(file, readFileSync(join(ROOT, file), 'utf8')));
    expect(problems).toEqual([]);
  });

  it('the checker itself catches violations (so the test above can fail)', () => {
    expect(violationsOf('main/core/x.ts', "import { readFileSync } from 'node:fs';")).toHaveLength(1);
    expect(violationsOf('main/core/x.ts', "import { openDatabase } from '../store/database.js';")).toHaveLength(1);
    expect(violationsOf('main/daemon/x.ts', "import { app } from 'electron';")).toHaveLength(1);
    expect(violationsOf('main/daemon/x.ts', "import { tray } from '../shell/tray.js';")).toHaveLength(1);
    expect(violationsOf('main/agent/loop.ts', "import { shell } from '../tools/shell.js';")).toHaveLength(1);
    expect(violationsOf('renderer/src/a.ts', "import { startDaemon } from '../../main/daemon/compose.js';")).toHaveLength(1);
    expect(violationsOf('renderer/src/a.ts', "import { createApiClient } from '../../main/api/client.js';")).toHaveLength(0);
  });

  it('is still enforced by lint, with messages that say what to do instead', async () => {
    const eslint = new ESLint({ cwd: ROOT });
    const ruleFor = async (file: string) => (await eslint.calculateConfigForFile(join(ROOT, file))).rules?.['no-restricted-imports'];
    const common = JSON.stringify(await ruleFor('main/core/errors.ts'));
    expect(common).toMatch(/^\[2,/);
    expect(common).toContain('"name":"node:fs"');
    expect(common).toContain('pass it in through an interface');
    const node = JSON.stringify(await ruleFor('main/daemon/compose.ts'));
    expect(node).toMatch(/^\[2,/);
    expect(node).toContain('Only main/shell');
    const agent = JSON.stringify(await ruleFor('main/agent/loop.ts'));
    expect(agent).toContain('never imports a tool');
    const renderer = JSON.stringify(await ruleFor('renderer/src/main.tsx'));
    expect(renderer).toMatch(/^\[2,/);
    expect(renderer).toContain('through the API client');
    const shell = await ruleFor('main/shell/index.ts');
    expect(JSON.stringify(shell ?? 'off')).not.toContain('"name":"electron"');
  });

  it('is still enforced by a tsconfig per environment', () => {
    const read = (name: string) => JSON.parse(readFileSync(join(ROOT, name), 'utf8')) as { compilerOptions: { lib: string[]; types: string[] }; include: string[]; exclude?: string[] };
    const common = read('tsconfig.common.json');
    expect(common.compilerOptions.types).toEqual([]);
    expect(common.compilerOptions.lib.some((lib) => /dom/i.test(lib))).toBe(false);
    expect(common.include).toEqual(['main/api/**/*.ts', 'main/core/**/*.ts']);
    const node = read('tsconfig.node.json');
    expect(node.exclude).toContain('main/shell/**');
    expect(node.compilerOptions.lib.some((lib) => /dom/i.test(lib))).toBe(false);
    const renderer = read('tsconfig.renderer.json');
    expect(renderer.compilerOptions.types).toEqual([]);
    const scripts = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts as Record<string, string>;
    for (const config of ['common', 'node', 'electron', 'renderer']) expect(scripts.typecheck).toContain(`tsconfig.${config}.json`);
  });
});
