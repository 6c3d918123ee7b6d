// electron-builder's layout check, offline: a stub Electron distribution stands in for the zip that only
// github.com serves (reference/stack-feasibility.md §10). What it proves: electron-builder.yml packs the three
// bundles, package.json, resources and the production dependencies into app.asar, unpacks what cannot load
// from an archive, and leaves development tools out. It cannot prove the app runs: there is no Electron here.
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { extractFile, listPackage } from '@electron/asar';
import { ROOT } from './support/daemon-process.js';

const BUNDLES = ['out/main/index.js', 'out/preload/index.cjs', 'out/renderer/index.html'];

function stubElectronDist(): string {
  const dir = mkdtempSync(join(tmpdir(), 'fermix-electron-stub-'));
  writeFileSync(join(dir, 'electron'), '#!/bin/sh\necho "stub Electron for packaging tests" >&2\nexit 1\n');
  chmodSync(join(dir, 'electron'), 0o755);
  writeFileSync(join(dir, 'LICENSE'), 'MIT (stub)\n');
  writeFileSync(join(dir, 'LICENSES.chromium.html'), '<!doctype html><title>stub</title>\n');
  writeFileSync(join(dir, 'version'), '45.5.0');
  return dir;
}

function runBuilder(args: string[], timeoutMs: number): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('npx', ['--no-install', 'electron-builder', ...args], { cwd: ROOT, env: { ...process.env, CI: '1' } });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** Bare package names a bundle imports (`zod`, `@scope/name`), without node: built-ins and relative paths. */
function importedPackages(source: string): string[] {
  const names = new Set<string>();
  for (const match of source.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g)) {
    const specifier = match[1] ?? match[2];
    if (specifier.startsWith('.') || specifier.startsWith('node:')) continue;
    const parts = specifier.split('/');
    names.add(specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]);
  }
  return [...names].sort();
}

describe('packaging (electron-builder --linux dir, stub Electron)', () => {
  const temporary: string[] = [];
  afterAll(() => temporary.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it('packs the bundles, package.json, resources and production dependencies into app.asar', async () => {
    const missing = BUNDLES.filter((file) => !existsSync(join(ROOT, file)));
    if (missing.length) throw new Error(`${missing.join(', ')} missing: run \`npx electron-vite build\` (npm test does it first), then run this test again.`);
    const stub = stubElectronDist();
    const output = mkdtempSync(join(tmpdir(), 'fermix-package-'));
    temporary.push(stub, output);

    const started = Date.now();
    const build = await runBuilder(['--linux', 'dir', `-c.electronDist=${stub}`, '--config', 'electron-builder.yml', `-c.directories.output=${output}`], 110_000);
    expect(build.code, build.output.slice(-4000)).toBe(0);
    console.log(`electron-builder --linux dir: ${((Date.now() - started) / 1000).toFixed(1)} s`);

    const appDir = join(output, 'linux-unpacked');
    const asar = join(appDir, 'resources', 'app.asar');
    expect(existsSync(join(appDir, 'fermix-desktop')), 'the renamed executable').toBe(true);
    const entries = new Set(listPackage(asar, { isPack: false }).map((entry) => entry.replaceAll('\\', '/')));
    for (const file of ['/out/main/index.js', '/out/preload/index.cjs', '/out/renderer/index.html', '/package.json', '/resources/icon.png', '/resources/tray.png']) {
      expect(entries.has(file), file).toBe(true);
    }
    expect([...entries].some((entry) => /^\/out\/renderer\/assets\/index-[\w-]+\.js$/.test(entry)), 'the renderer script').toBe(true);
    expect([...entries].filter((entry) => entry.endsWith('.map')), 'no source maps in the package').toEqual([]);
    expect([...entries].filter((entry) => /\.d\.[cm]?ts$/.test(entry)), 'no type declarations in the package').toEqual([]);
    expect([...entries].filter((entry) => entry.startsWith('/out/node')), 'the headless CLI bundle is not the app').toEqual([]);

    // The entry point electron starts is the one package.json names.
    const manifest = JSON.parse(extractFile(asar, 'package.json').toString('utf8')) as { main: string };
    expect(entries.has(`/${manifest.main}`), `package.json main (${manifest.main})`).toBe(true);

    // Every package the main bundle imports is packed (dependencies, not devDependencies), or is electron.
    const mainSource = extractFile(asar, 'out/main/index.js').toString('utf8');
    const needed = importedPackages(mainSource).filter((name) => name !== 'electron');
    expect(needed.length).toBeGreaterThan(3);
    for (const name of needed) expect(entries.has(`/node_modules/${name}/package.json`), `node_modules/${name} in app.asar`).toBe(true);
    for (const tool of ['electron', 'electron-vite', 'vite', 'vitest', 'typescript', 'eslint', 'jsdom']) {
      expect(entries.has(`/node_modules/${tool}/package.json`), `${tool} must not be packed`).toBe(false);
    }

    // Native addons (SQLite, the keychain, libnut) are real files next to the archive.
    const unpacked = join(appDir, 'resources', 'app.asar.unpacked', 'node_modules');
    expect(readdirSync(join(unpacked, '@photostructure', 'sqlite'), { recursive: true }).some((file) => String(file).endsWith('glibc.node')), 'SQLite addon unpacked').toBe(true);
    expect(readdirSync(join(unpacked, '@napi-rs'), { recursive: true }).some((file) => String(file).endsWith('.node')), '@napi-rs/keyring addon unpacked').toBe(true);
    expect(readdirSync(join(unpacked, '@nut-tree-fork'), { recursive: true }).some((file) => String(file).endsWith('.node')), 'libnut addon unpacked').toBe(true);

    // resources/ also lies next to the archive, as plain files for the sandbox.
    expect(existsSync(join(appDir, 'resources', 'resources', 'icon.png'))).toBe(true);
  }, 120_000);
});
