import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configSchema } from './schema.js';
import { loadConfig, locateKeyLine, parseConfigSource, updateConfig } from './config-file.js';

describe('config schema', () => {
  it('fills every nested default from an empty file', () => {
    const config = configSchema.parse({});
    expect(config.fermix_web.port).toBe(4030);
    expect(config.fermix_core.tools.tool_search.enabled).toBe(true);
    expect(config.fermix_core.computer_use.enabled).toBe(false);
    expect(config.permissions).toEqual({ mode: 'ask', rules: [] });
    expect(config.sandbox.mode).toBe('standard');
    expect(config.audit.retention_days).toBe(90);
  });

  it('refuses a non-boolean tool_search.enabled, naming the line', () => {
    const source = '[fermix_core.tools.tool_search]\nenabled = "no"\n';
    expect(() => parseConfigSource(source, 'config.toml')).toThrow(/config\.toml:2: .*fermix_core\.tools\.tool_search\.enabled/);
  });

  it('refuses two primary providers and an unknown role group, naming them', () => {
    const two = '[providers.a]\ntype = "openai"\nmodel = "m"\nprimary = true\n[providers.b]\ntype = "anthropic"\nmodel = "m"\nprimary = true\n';
    expect(() => parseConfigSource(two, 'c.toml')).toThrow(/only one provider may be primary/);
    const role = '[roles.reviewer]\ntools = ["fs", "wizardry"]\n';
    expect(() => parseConfigSource(role, 'c.toml')).toThrow(/unknown group "wizardry"/);
  });

  it('accepts the local Ollama provider block from the issue', () => {
    const source = '[providers.local]\ntype = "openai-compatible"\nbase_url = "http://127.0.0.1:11434/v1"\nmodel = "qwen3"\nprimary = true\n';
    expect(parseConfigSource(source, 'c.toml').config.providers.local).toMatchObject({ model: 'qwen3', primary: true });
  });

  it('locates keys in tables, dotted tables and dotted keys', () => {
    const source = '# comment\n[fermix_web]\nport = 1\n\n[providers.local]\ntype = "x"\nmodel = "y"\n[a]\nb.c = 1\n';
    expect(locateKeyLine(source, ['fermix_web', 'port'])).toBe(3);
    expect(locateKeyLine(source, ['providers', 'local', 'model'])).toBe(7);
    expect(locateKeyLine(source, ['a', 'b', 'c'])).toBe(9);
    expect(locateKeyLine(source, ['providers', 'local', 'nope'])).toBe(5);
  });

  it('updates atomically and refuses an edit that would make the file invalid, leaving it untouched', () => {
    const dir = mkdtempSync(join(tmpdir(), 'fermix-config-'));
    const file = join(dir, 'config.toml');
    writeFileSync(file, '[sandbox]\nmode = "strict"\n');
    updateConfig(file, (raw) => {
      (raw.sandbox as { allowed_roots?: string[] }).allowed_roots = ['/srv/data'];
    });
    expect(loadConfig(file).config.sandbox.allowed_roots).toEqual(['/srv/data']);
    const before = readFileSync(file, 'utf8');
    expect(() => updateConfig(file, (raw) => {
      (raw.sandbox as Record<string, unknown>).mode = 'yolo';
    })).toThrow();
    expect(readFileSync(file, 'utf8')).toBe(before);
  });
});
