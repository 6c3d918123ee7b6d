import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDispatcher } from '../api/dispatcher.js';
import { loadConfig } from '../config/config-file.js';
import { createKeychain } from '../secrets/keychain.js';
import { createComputerHandlers, createComputerUseControl } from './computer-handlers.js';
import { createProviderSettingsHandlers } from './provider-settings-handlers.js';
import { createSettingsHandlers } from './settings-handlers.js';
import { startModelServer } from '../../test/fixtures/model-server/index.js';

/** An in-memory keychain entry class: the keychain module's own seam (loadEntry), not a mock of it. */
function memoryKeychain() {
  const store = new Map<string, string>();
  class Entry {
    constructor(private service: string, private account: string) {}
    getPassword() { return store.get(`${this.service}/${this.account}`) ?? null; }
    setPassword(value: string) { store.set(`${this.service}/${this.account}`, value); }
    deletePassword() { return store.delete(`${this.service}/${this.account}`); }
  }
  return { store, keychain: (profile: string) => createKeychain({ profile, loadEntry: () => Entry }) };
}

function setup(configText = '') {
  const root = mkdtempSync(join(tmpdir(), 'fermix-settings-'));
  const home = join(root, 'home');
  const fermixHome = join(home, '.fermix');
  mkdirSync(join(fermixHome, 'workspace'), { recursive: true });
  const configFile = join(fermixHome, 'config.toml');
  if (configText) writeFileSync(configFile, configText);
  const secrets = memoryKeychain();
  const control = createComputerUseControl();
  const dispatcher = createDispatcher({
    ...createSettingsHandlers({ configFile, fermixHome, workspace: join(fermixHome, 'workspace'), home, keychain: secrets.keychain }),
    ...createProviderSettingsHandlers({ configFile, keychain: secrets.keychain }),
    ...createComputerHandlers({ control, config: () => loadConfig(configFile).config }),
  });
  const call = async (method: string, input: unknown = {}) => dispatcher.dispatch(method, input, { transport: 'in-process', trust: 'operator' });
  return { home, fermixHome, configFile, secrets, control, call };
}

describe('settings handlers', () => {
  it('reads defaults and changes permission and sandbox modes in config.toml, saying when they apply', async () => {
    const t = setup();
    const got = await t.call('settings.get');
    expect(got).toMatchObject({ ok: true, result: { permissions: { mode: 'ask' }, sandbox: { mode: 'standard', allowed_roots: [] }, applies: { sandbox: 'after_restart', providers: 'now' } } });
    const changed = await t.call('settings.update', { permission_mode: 'read_only', sandbox_mode: 'strict' });
    expect(changed.ok).toBe(true);
    expect((changed as any).result.message).toContain('Permissions: read only — anything that would change something is refused. It applies to the next call.');
    const config = loadConfig(t.configFile).config;
    expect(config.permissions.mode).toBe('read_only');
    expect(config.sandbox.mode).toBe('strict');
  });

  it('refuses an unknown mode with the field named', async () => {
    const t = setup();
    const answer = await t.call('settings.update', { sandbox_mode: 'wide-open' });
    expect(answer).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    // Said in words for the person, with the field itself kept for programs.
    expect((answer as any).error.message).toBe('The sandbox mode must be one of "strict", "standard", "open".');
    expect((answer as any).error.data.field).toBe('sandbox_mode');
  });

  it('sets and clears the transcription endpoint, and stores its key in the keychain only', async () => {
    const t = setup();
    await t.call('settings.update', { transcription: { base_url: 'http://127.0.0.1:8080/v1', model: 'whisper-1' } });
    expect(loadConfig(t.configFile).config.fermix_core.transcription).toMatchObject({ base_url: 'http://127.0.0.1:8080/v1', model: 'whisper-1' });
    const keyed = await t.call('settings.set_transcription_key', { api_key: 'sk-transcribe-123' });
    expect((keyed as any).result.transcription.api_key_ref).toBe('@keyring:TRANSCRIPTION_API_KEY');
    expect(readFileSync(t.configFile, 'utf8')).not.toContain('sk-transcribe-123');
    expect([...t.secrets.store.values()]).toContain('sk-transcribe-123');
    await t.call('settings.update', { transcription: { base_url: null, model: '' } });
    const cleared = loadConfig(t.configFile).config.fermix_core.transcription;
    expect(cleared.base_url).toBeUndefined();
    expect(cleared.model).toBeUndefined();
  });

  it('grants and revokes a folder, and refuses the whole home folder', async () => {
    const t = setup();
    const projects = join(t.home, 'projects');
    mkdirSync(projects, { recursive: true });
    const granted = await t.call('settings.grant_path', { path: projects });
    expect(granted.ok, JSON.stringify(granted)).toBe(true);
    expect(loadConfig(t.configFile).config.sandbox.allowed_roots).toEqual([projects]);
    const refused = await t.call('settings.grant_path', { path: t.home });
    expect(refused).toMatchObject({ ok: false });
    expect((refused as any).error.hint).not.toBe('');
    const revoked = await t.call('settings.revoke_path', { path: projects });
    expect((revoked as any).result.message).toContain(`Revoked ${projects}`);
    expect(loadConfig(t.configFile).config.sandbox.allowed_roots).toEqual([]);
    const again = await t.call('settings.revoke_path', { path: projects });
    expect(again).toMatchObject({ ok: false, error: { code: 'not_granted' } });
  });
});

describe('provider settings handlers', () => {
  it('adds the first provider as primary, keeps its key out of config, switches primary and model, removes', async () => {
    const t = setup();
    const added = await t.call('providers.add', { name: 'openai', type: 'openai', model: 'gpt-5-mini', api_key: 'sk-live-abc' });
    expect(added).toMatchObject({ ok: true, result: { name: 'openai', primary: true, api_key_ref: '@keyring:OPENAI_API_KEY' } });
    const text = readFileSync(t.configFile, 'utf8');
    expect(text).not.toContain('sk-live-abc');
    expect(t.secrets.store.get('fermix:OPENAI_API_KEY/fermix')).toBe('sk-live-abc');

    await t.call('providers.add', { name: 'local', type: 'openai-compatible', model: 'qwen3' });
    let providers = loadConfig(t.configFile).config.providers;
    expect(providers.local).toMatchObject({ base_url: 'http://127.0.0.1:11434/v1', primary: false });
    expect(providers.openai.primary).toBe(true);

    await t.call('providers.set_primary', { name: 'local' });
    await t.call('providers.set_model', { name: 'local', model: 'llama3.2' });
    providers = loadConfig(t.configFile).config.providers;
    expect(providers.local).toMatchObject({ primary: true, model: 'llama3.2' });
    expect(providers.openai.primary).toBe(false);

    expect(await t.call('providers.remove', { name: 'openai' })).toMatchObject({ ok: true });
    expect(Object.keys(loadConfig(t.configFile).config.providers)).toEqual(['local']);
    expect(await t.call('providers.set_key', { name: 'gone', api_key: 'x' })).toMatchObject({ ok: false, error: { code: 'unknown_provider' } });
  });

  it('lists the models of a server before anything is saved', async () => {
    const t = setup();
    const server = await startModelServer({ models: ['qwen3', 'llama3.2'] });
    try {
      const probed = await t.call('providers.probe_models', { type: 'openai-compatible', base_url: server.baseUrlOpenAI });
      expect(probed).toMatchObject({ ok: true, result: { models: ['llama3.2', 'qwen3'] } });
      expect(loadConfig(t.configFile).exists).toBe(false);
    } finally {
      await server.close();
    }
    const down = await t.call('providers.probe_models', { type: 'openai-compatible', base_url: server.baseUrlOpenAI });
    expect(down).toMatchObject({ ok: false, error: { code: 'provider_unreachable' } });
  });

  it('refuses a base_url that is not http(s)', async () => {
    const t = setup();
    const answer = await t.call('providers.add', { name: 'x', type: 'openai-compatible', model: 'm', base_url: 'file:///etc/passwd' });
    expect(answer).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
  });
});

describe('computer use handlers', () => {
  it('says "not enabled" honestly, and pauses and resumes the one switch', async () => {
    const t = setup();
    const off = await t.call('computer.status');
    expect(off).toMatchObject({ ok: true, result: { enabled: false, paused: false } });
    expect((off as any).result.summary).toContain('not enabled');
    writeFileSync(t.configFile, '[fermix_core.computer_use]\nenabled = true\n');
    const paused = await t.call('computer.pause');
    expect(paused).toMatchObject({ ok: true, result: { enabled: true, paused: true, changed: true } });
    expect(t.control.paused).toBe(true);
    expect(await t.call('computer.pause')).toMatchObject({ result: { changed: false } });
    expect(await t.call('computer.resume')).toMatchObject({ result: { paused: false, changed: true } });
  });
});
