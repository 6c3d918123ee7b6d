import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FermixError } from '../core/errors.js';
import { decodeManifest } from './manifest.js';

const base = () => ({
  schema_version: 2,
  name: 'demo',
  display_name: 'Demo',
  description: 'A demo plugin.',
  category: 'developer',
  version: '1.0.0',
  min_core_version: '0.1.0',
  plugin_api: 2,
  auth: { type: 'api_key', key_name: 'DEMO_TOKEN', prompt: 'Demo token' },
  tools: [{
    name: 'demo_list', description: 'List things.', read_only: true,
    parameters: { type: 'object', properties: {} },
    request: { method: 'GET', url: 'https://api.example.com/things/{id}' },
  }],
});

function refusal(value: unknown, dir?: string): FermixError {
  try {
    decodeManifest(JSON.stringify(value), '/plugins/demo/plugin.json', dir);
  } catch (error) {
    if (error instanceof FermixError) return error;
    throw error;
  }
  throw new Error('expected the manifest to be refused');
}

describe('plugin manifest', () => {
  it('accepts a valid manifest and fills defaults (Bearer, authorization header, http rail)', () => {
    const manifest = decodeManifest(JSON.stringify(base()), 'plugin.json', 'demo');
    expect(manifest.auth).toMatchObject({ type: 'api_key', scheme: 'Bearer', header: 'authorization' });
    expect(manifest.tools[0]).toMatchObject({ rail: 'http', policy_class: 'external_api' });
    expect(manifest.config).toEqual([]);
  });

  it('refuses unknown fields, naming the field and the file', () => {
    const error = refusal({ ...base(), colour: 'red' });
    expect(error.code).toBe('invalid_manifest');
    expect(error.message).toBe('/plugins/demo/plugin.json: field `colour` is not a known field.');
    const nested = base();
    (nested.tools[0] as Record<string, unknown>).extra = 1;
    expect(refusal(nested).message).toContain('field `tools[0].extra` is not a known field');
  });

  it('refuses a description over 100 bytes (bytes, not characters)', () => {
    const manifest = base();
    manifest.tools[0].description = 'é'.repeat(51); // 102 bytes, 51 characters
    expect(refusal(manifest).message).toContain('field `tools[0].description` must be at most 100 bytes');
  });

  it('applies the name rules', () => {
    expect(refusal({ ...base(), name: 'Demo' }).data).toMatchObject({ field: 'name' });
    expect(refusal({ ...base(), name: 'mcp_demo' }).message).toContain('must not start with mcp_');
    expect(refusal(base(), 'other').message).toContain('but the directory is "other"');
    const unprefixed = base();
    unprefixed.tools[0].name = 'list';
    expect(refusal(unprefixed).message).toContain('must start with "demo_"');
  });

  it('refuses an unknown schema_version rather than reading it as the newest', () => {
    expect(refusal({ ...base(), schema_version: 3 }).message).toContain('field `schema_version` is 3');
  });

  it('validates templates at install time: https only, no placeholder or userinfo in the host', () => {
    const cases: [string, string][] = [
      ['http://api.example.com/x', 'must start with https://'],
      ['https://{host}.example.com/x', 'placeholder in its host'],
      ['https://user:pw@api.example.com/x', 'userinfo'],
    ];
    for (const [url, expected] of cases) {
      const manifest = base();
      manifest.tools[0].request.url = url;
      const error = refusal(manifest);
      expect(error.message).toContain('field `tools[0].request.url`');
      expect(error.message).toContain(expected);
    }
  });

  it('checks api_key scheme, oauth2 scopes and the mcp rail runtime', () => {
    const discord = { ...base(), auth: { type: 'api_key', key_name: 'DISCORD_BOT_TOKEN', scheme: 'Bot', prompt: 'Bot token' } };
    expect(decodeManifest(JSON.stringify(discord), 'plugin.json').auth).toMatchObject({ scheme: 'Bot' });
    const oauth = { ...base(), auth: { type: 'oauth2', provider: 'github', scopes: ['repo'] }, tools: [{ ...base().tools[0], requires_scopes: ['admin'] }] };
    expect(refusal(oauth).message).toContain('names scopes the auth block does not declare (admin)');
    const mcp = { ...base(), auth: { type: 'none' }, tools: [{ name: 'demo_x', description: 'X.', read_only: true, rail: 'mcp' }] };
    expect(refusal(mcp).message).toContain('field `runtime` is required');
    const withRuntime = { ...mcp, runtime: { kind: 'node', command: 'node', args: ['src/index.js'], min_version: '20' } };
    expect(decodeManifest(JSON.stringify(withRuntime), 'plugin.json').runtime).toMatchObject({ kind: 'node', tool_name_mode: 'prefix' });
    expect(refusal({ ...withRuntime, runtime: { kind: 'node', command: '../node' } }).data).toMatchObject({ field: 'runtime.command' });
  });

  it('types config keys', () => {
    const manifest = { ...base(), config: [{ key: 'vault_path', prompt: 'Vault', required: true }] };
    expect(refusal(manifest).data).toMatchObject({ field: 'config[0].key' });
  });

  it('accepts the shipped Slack and GitHub manifests', () => {
    for (const name of ['slack', 'github']) {
      const file = join(import.meta.dirname, '..', '..', 'resources', 'plugins', name, 'plugin.json');
      expect(decodeManifest(readFileSync(file, 'utf8'), file, name).name).toBe(name);
    }
  });
});
