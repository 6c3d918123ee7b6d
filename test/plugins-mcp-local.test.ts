/**
 * The local-MCP rail end to end: the signed Obsidian plugin from resources/plugins is installed from a
 * test catalog, probed (node ≥ 20), started as a real stdio process against a temporary vault, and its
 * tools called through the registry as `obsidian_<tool>`. A second plugin whose server always crashes
 * is quarantined after 5 attempts without disturbing Obsidian.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRegistry, type Capability } from '../main/core/capabilities/index.js';
import type { FermixError } from '../main/core/errors.js';
import { createLocalMcpRail } from '../main/plugins/rails/mcp-local/local-rail.js';
import { createPluginSupervisor } from '../main/plugins/supervisor.js';
import { readPluginsSettings } from '../main/plugins/settings.js';
import { installPlugin } from '../main/plugins/store/install.js';
import { createPluginStore } from '../main/plugins/store/store.js';
import { makeTestCatalog, pluginVariant, PLUGIN_SOURCES } from './fixtures/plugin-fakes/catalog-fixture.js';

let dir: string;
let vault: string;
let outside: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'fermix-mcp-local-'));
  vault = join(dir, 'vault');
  outside = join(dir, 'outside');
  mkdirSync(join(vault, 'Projects'), { recursive: true });
  mkdirSync(join(vault, '.obsidian'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(vault, 'Projects', 'plan.md'), '# Plan\nShip the obsidian rail on Friday.\n');
  writeFileSync(join(vault, 'inbox.md'), 'Buy milk\n');
  writeFileSync(join(vault, '.obsidian', 'secret.md'), 'Friday in the config dir\n');
  writeFileSync(join(outside, 'private.md'), 'Friday outside the vault\n');
  symlinkSync(outside, join(vault, 'escape'));
  symlinkSync(join(outside, 'private.md'), join(vault, 'linked.md'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const context = () => ({ trust: 'operator' as const, origin: 'cli' as const, signal: new AbortController().signal, services: {} });
async function run(cap: Capability | undefined, args: Record<string, unknown>): Promise<{ ok: true; data: unknown } | { ok: false; error: FermixError }> {
  if (!cap) throw new Error('tool not registered');
  return cap.executor!(args, context()).then((result) => ({ ok: true as const, data: result.data }), (error: FermixError) => ({ ok: false as const, error }));
}

/** A plugin "crashy" built from the Obsidian source whose server exits at once. */
function crashySource(): string {
  const target = join(dir, 'crashy-src', 'crashy');
  cpSync(join(PLUGIN_SOURCES, 'obsidian'), target, { recursive: true });
  const manifest = JSON.parse(readFileSync(join(target, 'plugin.json'), 'utf8')) as { name: string; tools: { name: string }[]; config: unknown[] };
  manifest.name = 'crashy';
  manifest.config = [];
  for (const tool of manifest.tools) tool.name = tool.name.replace(/^obsidian_/, 'crashy_');
  writeFileSync(join(target, 'plugin.json'), JSON.stringify(manifest));
  writeFileSync(join(target, 'src', 'index.js'), 'process.stderr.write("boom\\n"); process.exit(3);\n');
  return target;
}

describe('local MCP rail: Obsidian', () => {
  it('probes node, needs the vault path, registers obsidian_<tool>, confines every tool to the vault, and survives a crashing neighbour', async () => {
    const fixture = await makeTestCatalog(join(dir, 'cat'), [join(PLUGIN_SOURCES, 'obsidian'), crashySource()]);
    const store = createPluginStore(join(dir, 'plugins'));
    await installPlugin({ store, catalog: fixture.catalog(), coreVersion: '0.1.0' }, 'obsidian');
    await installPlugin({ store, catalog: fixture.catalog(), coreVersion: '0.1.0' }, 'crashy');
    const registry = createRegistry();
    const stderr: string[] = [];
    const rail = createLocalMcpRail({ registry, backoff: { baseMs: 5, maxMs: 20 }, onStderrLine: (plugin, line) => stderr.push(`${plugin}: ${line}`) });
    let raw: Record<string, unknown> = { enabled: ['obsidian', 'crashy'] };
    const supervisor = createPluginSupervisor({ store, catalog: fixture.catalog(), registry, coreVersion: '0.1.0', secrets: { get: () => null, has: () => false }, net: {}, settings: () => readPluginsSettings(raw), localMcp: rail });
    try {
      expect(supervisor.reload().find((s) => s.name === 'obsidian')).toMatchObject({ status: 'needs_config', tools: [] });
      raw = { ...raw, obsidian: { OBSIDIAN_VAULT_PATH: vault } };
      expect(supervisor.reload().find((s) => s.name === 'obsidian')?.status).toBe('ready');
      await rail.settled();
      const states = Object.fromEntries(supervisor.states().map((s) => [s.name, s]));
      expect(states.obsidian).toMatchObject({ status: 'ready', live: 'ready', tools: ['obsidian_search_notes', 'obsidian_read_note', 'obsidian_create_note', 'obsidian_append_note', 'obsidian_list_folder'] });
      // One crashing server is quarantined after 5 attempts with its last error; Obsidian is untouched.
      expect(states.crashy).toMatchObject({ live: 'quarantined', tools: [] });
      expect(rail.state('crashy')?.attempts).toBe(5);
      expect(stderr).toContain('crashy: boom');
      expect(registry.list().filter((cap) => cap.metadata.plugin === 'crashy')).toEqual([]);

      const tool = (name: string) => registry.find(`obsidian_${name}`);
      expect(tool('read_note')).toMatchObject({ kind: 'mcp', policy_class: 'read_only', is_mutating: false, metadata: { plugin: 'obsidian', plugin_owned: true, category: 'plugin' } });
      expect(tool('create_note')).toMatchObject({ policy_class: 'read_write', is_mutating: true });

      const search = await run(tool('search_notes'), { query: 'friday' });
      // .obsidian is skipped, and the symlinked folder and note out of the vault are never searched.
      expect(search).toEqual({ ok: true, data: { query: 'friday', results: [{ path: 'Projects/plan.md', snippet: 'Ship the obsidian rail on Friday.' }] } });
      expect(await run(tool('search_notes'), { query: 'x', limit: 51 })).toMatchObject({ ok: false });
      expect(await run(tool('read_note'), { path: 'Projects/plan' })).toEqual({ ok: true, data: { path: 'Projects/plan.md', content: '# Plan\nShip the obsidian rail on Friday.\n' } });

      const created = await run(tool('create_note'), { path: 'Daily/2026-01-05.md', content: 'first' });
      expect(created).toEqual({ ok: true, data: { path: 'Daily/2026-01-05.md', created: true, bytes: 5 } });
      const again = await run(tool('create_note'), { path: 'Daily/2026-01-05.md', content: 'second' });
      expect(again.ok === false && again.error.message).toContain('already exists');
      expect(readFileSync(join(vault, 'Daily', '2026-01-05.md'), 'utf8')).toBe('first');

      expect(await run(tool('append_note'), { path: 'inbox.md', content: 'Call Ada\n' })).toMatchObject({ ok: true });
      expect(readFileSync(join(vault, 'inbox.md'), 'utf8')).toBe('Buy milk\nCall Ada\n');
      const missing = await run(tool('append_note'), { path: 'nope.md', content: 'x' });
      expect(missing.ok === false && missing.error.message).toContain('no note nope.md');

      // Out of the vault: `..`, absolute paths and symlinks (folder and note) are all refused.
      for (const [name, args] of [
        ['read_note', { path: '../outside/private.md' }],
        ['read_note', { path: join(outside, 'private.md') }],
        ['read_note', { path: 'escape/private.md' }],
        ['read_note', { path: 'linked.md' }],
        ['create_note', { path: 'escape/new.md', content: 'x' }],
        ['append_note', { path: 'linked.md', content: 'x' }],
        ['list_folder', { path: 'escape' }],
      ] as const) {
        const result = await run(tool(name), args);
        expect(result.ok, `${name} ${JSON.stringify(args)}`).toBe(false);
      }
      expect(readFileSync(join(outside, 'private.md'), 'utf8')).toBe('Friday outside the vault\n');
      expect(await run(tool('list_folder'), {})).toEqual({ ok: true, data: { path: '', entries: [{ name: 'Daily', kind: 'folder' }, { name: 'escape', kind: 'symlink' }, { name: 'inbox.md', kind: 'note' }, { name: 'linked.md', kind: 'symlink' }, { name: 'Projects', kind: 'folder' }] } });

      // Disabling stops the process and unregisters its tools.
      raw = { ...raw, enabled: [] };
      supervisor.reload();
      expect(registry.list().filter((cap) => cap.metadata.plugin === 'obsidian')).toEqual([]);
    } finally {
      await rail.close();
    }
  });

  it('a runtime older than min_version is missing_host_runtime and starts nothing', async () => {
    const tooNew = pluginVariant(dir, 'obsidian', (m) => { (m.runtime as { min_version: string }).min_version = '99'; });
    const fixture = await makeTestCatalog(join(dir, 'cat2'), [tooNew]);
    const store = createPluginStore(join(dir, 'plugins2'));
    await installPlugin({ store, catalog: fixture.catalog(), coreVersion: '0.1.0' }, 'obsidian');
    const registry = createRegistry();
    const rail = createLocalMcpRail({ registry });
    const supervisor = createPluginSupervisor({ store, catalog: fixture.catalog(), registry, coreVersion: '0.1.0', secrets: { get: () => null, has: () => false }, net: {}, localMcp: rail, settings: () => readPluginsSettings({ enabled: ['obsidian'], obsidian: { OBSIDIAN_VAULT_PATH: vault } }) });
    const state = supervisor.reload()[0];
    expect(state).toMatchObject({ status: 'missing_host_runtime', tools: [] });
    expect(state.detail).toMatch(/^node \d+\.\d+\.\d+ is older than 99$/);
    expect(rail.state('obsidian')).toBeUndefined();
    await rail.close();
  });
});
