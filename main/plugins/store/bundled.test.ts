import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FermixError } from '../../core/errors.js';
import { REPO_ROOT } from '../../../test/fixtures/plugin-fakes/catalog-fixture.js';
import { runCatalogBuild } from '../catalog/build-main.js';
import type { CatalogIndex } from '../catalog/catalog-schema.js';
import { createPluginStore } from './store.js';

let dir: string;
beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'fermix-bundled-')); });
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const fakeInstall = (pluginsDir: string, name: string) => {
  mkdirSync(join(pluginsDir, 'installed', name, '1.0.0'), { recursive: true });
  writeFileSync(join(pluginsDir, 'installed', name, 'current'), '1.0.0\n');
};

describe('bundled plugins', () => {
  it('the store refuses to remove gmail, google_calendar and google_drive (disable instead), and removes others', () => {
    const pluginsDir = join(dir, 'plugins');
    const store = createPluginStore(pluginsDir);
    for (const name of ['gmail', 'google_calendar', 'google_drive']) {
      fakeInstall(pluginsDir, name);
      let refused: unknown;
      try {
        store.remove(name);
      } catch (error) {
        refused = error;
      }
      expect(refused).toBeInstanceOf(FermixError);
      expect([(refused as FermixError).code, (refused as FermixError).hint]).toEqual(['bundled_plugin', `Disable it instead: \`fermix plugins disable ${name}\`.`]);
      expect(store.current(name)).toBe('1.0.0');
    }
    fakeInstall(pluginsDir, 'slack');
    expect(store.remove('slack')).toBe(true);
    expect(existsSync(join(pluginsDir, 'installed', 'slack'))).toBe(false);
  });

  it('the catalog build marks the Google trio bundled and nothing else', async () => {
    const out = join(dir, 'catalog');
    await runCatalogBuild(REPO_ROOT, ['--out', out, '--keys', join(dir, 'keys'), '--dev-key-dir', join(dir, 'dev-key')], {});
    const index = JSON.parse(readFileSync(join(out, 'index.json'), 'utf8')) as CatalogIndex;
    expect(index.plugins.filter((p) => p.bundled).map((p) => p.name)).toEqual(['gmail', 'google_calendar', 'google_drive']);
    expect(index.plugins.map((p) => p.name)).toEqual(expect.arrayContaining(['agentmail', 'discord', 'github', 'notion', 'slack', 'x']));
  });
});
