import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FermixError } from '../../core/errors.js';
import { createTestPolicy } from '../../net/test-policy.js';
import { makeTestCertificates, startHttpsServer } from '../../net/test-support.js';
import { makeTestCatalog, pluginVariant, PLUGIN_SOURCES, rawTarGz, REPO_ROOT, type TestCatalog } from '../../../test/fixtures/plugin-fakes/catalog-fixture.js';
import { installPlugin, type InstallProgress } from './install.js';
import { createPluginStore, type PluginStore } from './store.js';

let dir: string;
let store: PluginStore;
let fixture: TestCatalog;
const slackManifest = readFileSync(join(PLUGIN_SOURCES, 'slack', 'plugin.json'), 'utf8');
const v110 = slackManifest.replace('"version": "1.0.0"', '"version": "1.1.0"');

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fermix-store-'));
  store = createPluginStore(join(dir, 'plugins'));
  fixture = await makeTestCatalog(dir, [join(PLUGIN_SOURCES, 'slack'), join(PLUGIN_SOURCES, 'github')]);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const deps = (onProgress?: (p: InstallProgress) => void) => ({ store, catalog: fixture.catalog(), coreVersion: '0.1.0', onProgress });

async function refusal(promise: Promise<unknown>): Promise<FermixError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof FermixError) return error;
    throw error;
  }
  throw new Error('expected the install to be refused');
}

function assertNothingHalfInstalled(expectCurrent: string | null) {
  expect(store.current('slack')).toBe(expectCurrent);
  const versions = store.list().find((p) => p.name === 'slack')?.versions ?? [];
  expect(versions).toEqual(expectCurrent ? [expectCurrent] : []);
  expect(existsSync(store.stagingDir) ? readdirSync(store.stagingDir) : []).toEqual([]);
}

describe('plugin store: install, verify, extract, activate', () => {
  it('installs a catalog plugin with progress events and loads it with provenance re-checked', async () => {
    const phases: string[] = [];
    const provenance = await installPlugin(deps((p) => phases.push(p.phase)), 'slack');
    expect(provenance).toMatchObject({ name: 'slack', version: '1.0.0' });
    expect([...new Set(phases)]).toEqual(['download', 'verify', 'extract', 'activate', 'done']);
    const loaded = store.load('slack', fixture.catalog().keys)!;
    expect(loaded.manifest.tools.map((t) => t.name)).toContain('slack_list_channels');
    assertNothingHalfInstalled('1.0.0');
  });

  it('refuses hostile or damaged artifacts by name and leaves the previous version working', async () => {
    await installPlugin(deps(), 'slack');
    const good = readFileSync(join(fixture.dir, 'artifacts', 'slack-1.0.0.tar.gz'));
    const cases: [string, () => void, string][] = [
      ['flipped byte', () => {
        fixture.addArtifact('slack', '1.1.0', rawTarGz([{ name: 'plugin.json', content: v110 }]));
        const file = join(fixture.dir, 'artifacts', 'slack-1.1.0-custom.tar.gz');
        const bytes = readFileSync(file);
        bytes[bytes.length - 20] ^= 0x01;
        writeFileSync(file, bytes);
      }, 'checksum_mismatch'],
      ['wrong signature', () => fixture.addArtifact('slack', '1.1.0', rawTarGz([{ name: 'plugin.json', content: v110 }]), { signature: fixture.catalog().entry('slack')!.versions[0].artifacts[0].signature }), 'signature_invalid'],
      ['swapped manifest', () => fixture.addArtifact('slack', '1.1.0', rawTarGz([{ name: 'plugin.json', content: readFileSync(join(PLUGIN_SOURCES, 'github', 'plugin.json')) }])), 'invalid_manifest'],
      ['symlink entry', () => fixture.addArtifact('slack', '1.1.0', rawTarGz([{ name: 'plugin.json', content: v110 }, { name: 'skills/evil', type: '2', linkname: '/etc/passwd' }])), 'artifact_symlink'],
      ['hardlink entry', () => fixture.addArtifact('slack', '1.1.0', rawTarGz([{ name: 'plugin.json', content: v110 }, { name: 'README.md', type: '1', linkname: 'plugin.json' }])), 'artifact_hardlink'],
      ['../ entry', () => fixture.addArtifact('slack', '1.1.0', rawTarGz([{ name: 'plugin.json', content: v110 }, { name: 'skills/../../escape.txt', content: 'x' }])), 'artifact_path_escape'],
      ['absolute entry', () => fixture.addArtifact('slack', '1.1.0', rawTarGz([{ name: 'plugin.json', content: v110 }, { name: '/tmp/escape.txt', content: 'x' }])), 'artifact_absolute_path'],
      ['unexpected top-level entry', () => fixture.addArtifact('slack', '1.1.0', rawTarGz([{ name: 'plugin.json', content: v110 }, { name: 'src/index.js', content: 'x' }])), 'artifact_unexpected_entry'],
      ['executable in a data-only artifact', () => fixture.addArtifact('slack', '1.1.0', rawTarGz([{ name: 'plugin.json', content: v110 }, { name: 'README.md', content: '#!/bin/sh', mode: 0o755 }])), 'artifact_executable'],
      ['device file', () => fixture.addArtifact('slack', '1.1.0', rawTarGz([{ name: 'plugin.json', content: v110 }, { name: 'assets/dev', type: '3' }])), 'artifact_special_file'],
    ];
    for (const [label, arrange, code] of cases) {
      arrange();
      const error = await refusal(installPlugin(deps(), 'slack', { version: '1.1.0' }));
      expect(error.code, label).toBe(code);
      expect(error.message, label).not.toBe('');
      assertNothingHalfInstalled('1.0.0');
      expect(existsSync(join(dir, 'escape.txt')) || existsSync('/tmp/escape.txt'), label).toBe(false);
      expect(store.load('slack', fixture.catalog().keys)?.version).toBe('1.0.0');
    }
    expect(good.length).toBeGreaterThan(0);
  });

  it('fetches an https artifact only through Net.Guard (loopback opens only with the minted test policy)', async () => {
    const bytes = readFileSync(join(fixture.dir, 'artifacts', 'slack-1.0.0.tar.gz'));
    const certs = await makeTestCertificates('plugins.example');
    const server = await startHttpsServer({ key: certs.key, cert: certs.cert }, (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/gzip' });
      response.end(bytes);
    });
    try {
      const index = join(fixture.dir, 'index.json');
      writeFileSync(index, readFileSync(index, 'utf8').replace('file:artifacts/slack-1.0.0.tar.gz', `https://plugins.example:${server.port}/slack-1.0.0.tar.gz`));
      const lookup = async () => [{ address: '127.0.0.1', family: 4 as const }];
      const blocked = await refusal(installPlugin({ ...deps(), net: { ca: certs.ca, lookup } }, 'slack'));
      expect(blocked.code).toBe('blocked_url');
      assertNothingHalfInstalled(null);
      await installPlugin({ ...deps(), net: { policy: createTestPolicy(), ca: certs.ca, lookup } }, 'slack');
      expect(store.load('slack', fixture.catalog().keys)?.version).toBe('1.0.0');
      expect(server.requests).toHaveLength(1);
    } finally {
      await server.close();
      await certs.cleanup();
    }
  });

  it('refuses to load a plugin whose installed file was edited afterwards', async () => {
    await installPlugin(deps(), 'slack');
    const installed = join(store.installedDir, 'slack', '1.0.0', 'plugin.json');
    writeFileSync(installed, readFileSync(installed, 'utf8').replace('https://slack.com/api/team.info', 'https://attacker.example/api/team.info'));
    const error = (() => {
      try {
        store.load('slack', fixture.catalog().keys);
      } catch (caught) {
        return caught as FermixError;
      }
      throw new Error('expected plugin_tampered');
    })();
    expect(error.code).toBe('plugin_tampered');
    expect(error.message).toContain('an installed file was changed, added or removed');
    expect(error.hint).toContain('fermix plugins install slack');
  });

  it('a kill -9 in the middle of an install leaves the previous version working', async () => {
    await installPlugin(deps(), 'slack');
    const v2 = pluginVariant(dir, 'slack', (m) => { m.version = '1.1.0'; });
    const second = await makeTestCatalog(join(dir, 'second'), [join(PLUGIN_SOURCES, 'slack'), v2]);
    const keys = [...fixture.catalog().keys, ...second.catalog().keys];
    for (const phase of ['extract', 'activate']) {
      const child = spawnSync(process.execPath, ['--import', 'tsx', join(REPO_ROOT, 'test', 'fixtures', 'plugin-fakes', 'install-child.ts'), join(dir, 'plugins'), second.dir, 'slack', '1.1.0', phase], { cwd: REPO_ROOT, encoding: 'utf8' });
      expect(child.signal, child.stderr).toBe('SIGKILL');
      const loaded = store.load('slack', keys)!;
      expect(loaded.version).toBe('1.0.0');
    }
    // The next install sweeps what the killed ones left and succeeds.
    store.sweepStaging(0);
    await installPlugin({ store, catalog: second.catalog(), coreVersion: '0.1.0' }, 'slack');
    expect(store.load('slack', keys)!.version).toBe('1.1.0');
    expect(store.gc()).toEqual([{ name: 'slack', version: '1.0.0' }]);
  });
});
