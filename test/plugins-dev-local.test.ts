import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../main/config/config-file.js';
import { ensureHome, homePaths, type HomePaths } from '../main/config/home.js';
import { pluginsVerb } from '../main/cli/verbs/plugins.js';
import { pluginsDoctorCheck } from '../main/plugins/doctor-check.js';
import { createPluginService } from '../main/plugins/service.js';
import { createSecretStore } from '../main/secrets/secret-store.js';
import { ROOT } from './support/daemon-process.js';

// `[fermix_core.plugins] dev_local`: unsigned source folders in a temp directory, loaded with the
// manifest schema and no signature; each refused folder is named with its field while the rest load.
let paths: HomePaths;
let devDir: string;

const manifest = (name: string, extra: Record<string, unknown> = {}) => ({
  schema_version: 2, name, display_name: name, description: 'A development plugin.', category: 'developer', version: '0.0.1',
  min_core_version: '0.1.0', plugin_api: 2, auth: { type: 'none' },
  tools: [{ name: `${name}_ping`, description: 'Ping.', read_only: true, parameters: { type: 'object', properties: {} }, request: { method: 'GET', url: 'https://api.example.com/ping' } }],
  ...extra,
});
const folder = (name: string, content: unknown) => {
  mkdirSync(join(devDir, name), { recursive: true });
  writeFileSync(join(devDir, name, 'plugin.json'), typeof content === 'string' ? content : JSON.stringify(content));
};
const run = async (...argv: string[]) => {
  const out: string[] = [];
  const err: string[] = [];
  const code = await pluginsVerb({ out: (t) => out.push(t), err: (t) => err.push(t) }, paths, argv);
  return { code, stdout: out.join('\n'), stderr: err.join('\n') };
};
const writeConfig = (dev: string) => writeFileSync(paths.config, `[fermix_core]\nsecret_store = "file"\n\n[fermix_core.plugins]\ntrust_dev_key = true\ndev_local = "${dev}"\n`);

beforeAll(() => {
  if (!existsSync(join(ROOT, 'resources', 'catalog', 'index.json'))) throw new Error('resources/catalog/index.json is missing: run `node scripts/build-catalog.mjs` (npm ci does).');
  paths = homePaths(mkdtempSync(join(tmpdir(), 'fermix-dev-local-')));
  ensureHome(paths);
  devDir = join(paths.home, 'dev-plugins');
  folder('mytool', manifest('mytool', { config: [{ key: 'MYTOOL_MODE', prompt: 'Mode', required: false }] }));
  folder('broken', manifest('broken', { colour: 'red' }));
  folder('slack', manifest('slack'));
  folder('hosted_demo', manifest('hosted_demo', { plugin_api: 3, runtime: { kind: 'remote_mcp', url: 'https://mcp.example.com/mcp' } }));
  mkdirSync(join(devDir, 'empty'));
  // Relative to the config file's directory ($FERMIX_HOME), not the working directory.
  writeConfig('dev-plugins');
});
afterAll(() => rmSync(paths.home, { recursive: true, force: true }));

describe('dev_local plugin folders', () => {
  it('loads a valid unsigned folder as source dev_local, and enable needs no install', async () => {
    const listed = await run('list', '--json');
    expect(listed.code, listed.stderr).toBe(0);
    const result = JSON.parse(listed.stdout).result as { plugins: { name: string; source: string; status: string; version: string | null }[]; dev_local: { dir: string; loaded: string[] } };
    expect(result.plugins.find((plugin) => plugin.name === 'mytool')).toMatchObject({ source: 'dev_local', status: 'disabled', version: '0.0.1' });
    // The catalog's slack stays the signed one: the dev folder named slack does not shadow it.
    expect(result.plugins.find((plugin) => plugin.name === 'slack')?.source).toBe('catalog');
    expect(result.dev_local).toMatchObject({ dir: devDir, loaded: ['mytool'] });

    const enabled = await run('enable', 'mytool', '--json');
    expect(enabled.code, enabled.stderr).toBe(0);
    expect(JSON.parse(enabled.stdout).result).toEqual({ name: 'mytool', enabled: true, installed: false, status: 'ready' });
    expect(existsSync(join(paths.plugins, 'installed', 'mytool'))).toBe(false);
    const people = await run('list');
    expect(people.stdout).toMatch(/mytool\s+ready\s+enabled .*\(dev_local, unsigned\)/);
    // Config and auth read the dev folder's manifest, as they read an installed one.
    expect(JSON.parse((await run('config', 'mytool', '--json')).stdout).result).toEqual({ name: 'mytool', keys: [{ key: 'MYTOOL_MODE', prompt: 'Mode', required: false, kind: 'text', value: null }] });
    const needsNoKey = JSON.parse((await run('auth', 'login', 'mytool', '--json')).stdout).error;
    expect(needsNoKey.code).toBe('wrong_auth_type');
  });

  it('refuses a bad manifest, a name collision, a hosted runtime and a folder without plugin.json, each naming the folder and field', async () => {
    const listed = await run('list', '--json');
    const refusals = (JSON.parse(listed.stdout).result.dev_local.refusals as { folder: string; code: string; field: string; message: string }[]);
    expect(refusals.map((refusal) => [refusal.folder, refusal.code, refusal.field])).toEqual([
      [join(devDir, 'broken'), 'invalid_manifest', 'colour'],
      [join(devDir, 'empty'), 'invalid_manifest', 'plugin.json'],
      [join(devDir, 'hosted_demo'), 'unverified_remote_runtime', 'runtime.kind'],
      [join(devDir, 'slack'), 'plugin_name_collision', 'name'],
    ]);
    expect(refusals[3].message).toBe(`${join(devDir, 'slack', 'plugin.json')}: field \`name\` is "slack", which a catalog or installed plugin already uses.`);
    expect((await run('reload')).stdout).toContain(`refused dev_local folder — unverified_remote_runtime: ${join(devDir, 'hosted_demo', 'plugin.json')}: field \`runtime.kind\` is remote_mcp`);
    const people = await run('list');
    expect(people.stdout).toContain(`refused dev_local folder — invalid_manifest: ${join(devDir, 'broken', 'plugin.json')}: field \`colour\` is not a known field.`);

    const service = createPluginService({ pluginsDir: paths.plugins, configFile: paths.config, resourcesDir: join(ROOT, 'resources'), coreVersion: '0.1.0', keychain: createSecretStore({ kind: 'file', fermixHome: paths.home }) });
    const row = await pluginsDoctorCheck(() => service, { insideDaemon: false }).run();
    expect(row.status).toBe('WARN');
    expect(row.detail).toContain(`unsigned plugins are loaded from dev_local ${devDir}: mytool; refused: ${join(devDir, 'broken')} invalid_manifest (colour)`);
    expect(row.fix).toContain('then run `fermix plugins reload`');
  });

  it('a dev_local that is not a directory is a refusal, not a failed start; the config key is validated', async () => {
    writeConfig(join(paths.home, 'nowhere'));
    const listed = await run('list', '--json');
    expect(listed.code, listed.stderr).toBe(0);
    const result = JSON.parse(listed.stdout).result;
    expect(result.dev_local.refusals[0]).toMatchObject({ code: 'dev_local_missing', field: 'dev_local' });
    expect(result.plugins.find((plugin: { name: string }) => plugin.name === 'slack')).toBeTruthy();

    writeFileSync(paths.config, '[fermix_core.plugins]\ndev_local = 3\n');
    expect(() => loadConfig(paths.config)).toThrow(/must be the path of a directory of plugin source folders "fermix_core.plugins.dev_local"/);
    writeConfig('dev-plugins');
  });
});
