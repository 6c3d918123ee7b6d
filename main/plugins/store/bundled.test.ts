import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FermixError } from '../../core/errors.js';
import { REPO_ROOT } from '../../../test/fixtures/plugin-fakes/catalog-fixture.js';
import { runCatalogBuild } from '../catalog/build-main.js';
import type { CatalogIndex } from '../catalog/catalog-schema.js';
import { createSecretStore } from '../../secrets/secret-store.js';
import { createPluginService } from '../service.js';
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

  it('installBundled (daemon start) installs the trio through the verified install, once; uninstall is refused', async () => {
    const configFile = join(dir, 'config.toml');
    const service = (trusted: boolean) => {
      writeFileSync(configFile, `[fermix_core]\nsecret_store = "file"\n\n[fermix_core.plugins]\ntrust_dev_key = ${trusted}\n`);
      return createPluginService({ pluginsDir: join(dir, 'plugins'), configFile, resourcesDir: join(REPO_ROOT, 'resources'), coreVersion: '0.1.0', keychain: createSecretStore({ kind: 'file', fermixHome: dir }) });
    };
    // A catalog whose signer is not trusted installs nothing: each refusal is reported, none thrown.
    const untrusted = await service(false).installBundled();
    expect([untrusted.installed, untrusted.failed.map((failure) => [failure.name, failure.code])]).toEqual([[], [['gmail', 'untrusted_signer'], ['google_calendar', 'untrusted_signer'], ['google_drive', 'untrusted_signer']]]);
    expect(existsSync(join(dir, 'plugins', 'installed', 'gmail'))).toBe(false);

    const trusted = service(true);
    expect(await trusted.installBundled()).toEqual({ installed: ['gmail', 'google_calendar', 'google_drive'], failed: [] });
    expect(trusted.installed().map((plugin) => [plugin.name, plugin.current])).toEqual([['gmail', '1.0.0'], ['google_calendar', '1.0.0'], ['google_drive', '1.0.0']]);
    // Verified like any install: the provenance check passes on load, and a second start installs nothing.
    expect(trusted.reload().filter((plugin) => plugin.name.startsWith('g') && plugin.name !== 'github').map((plugin) => plugin.status)).toEqual(['disabled', 'disabled', 'disabled']);
    expect(await trusted.installBundled()).toEqual({ installed: [], failed: [] });
    let refused: unknown;
    try {
      trusted.uninstall('gmail');
    } catch (error) {
      refused = error;
    }
    expect([(refused as FermixError).code, (refused as FermixError).hint]).toEqual(['bundled_plugin', 'Disable it instead: `fermix plugins disable gmail`.']);
  });

  it('the catalog build marks the Google trio bundled and nothing else', async () => {
    const out = join(dir, 'catalog');
    await runCatalogBuild(REPO_ROOT, ['--out', out, '--keys', join(dir, 'keys'), '--dev-key-dir', join(dir, 'dev-key')], {});
    const index = JSON.parse(readFileSync(join(out, 'index.json'), 'utf8')) as CatalogIndex;
    expect(index.plugins.filter((p) => p.bundled).map((p) => p.name)).toEqual(['gmail', 'google_calendar', 'google_drive']);
    expect(index.plugins.map((p) => p.name)).toEqual(expect.arrayContaining(['agentmail', 'discord', 'github', 'notion', 'slack', 'x']));
  });
});
