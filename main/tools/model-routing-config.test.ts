// model_routing_config against a real config.toml in a temp home (read, set, delete, refusals).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config-file.js';
import type { ExecutionContext } from '../core/capabilities/capability.js';
import { isFermixError } from '../core/errors.js';
import { modelRoutingConfig } from './model-routing-config.js';

function home(config: string) {
  const file = join(mkdtempSync(join(tmpdir(), 'fermix-routing-')), 'config.toml');
  writeFileSync(file, config);
  const context: ExecutionContext = { trust: 'operator', origin: 'chat', signal: new AbortController().signal, services: { configFile: file } };
  const run = (args: Record<string, unknown>) => modelRoutingConfig.executor!(args, context);
  return { file, run };
}

const PROVIDERS = `[providers.openai]\ntype = "openai"\nmodel = "gpt-5"\nprimary = true\napi_key_env = "OPENAI_API_KEY"\n\n[providers.local]\ntype = "openai-compatible"\nmodel = "qwen3"\n`;

describe('model_routing_config', () => {
  it('reads the routing section with the configured providers', async () => {
    const { run } = home(`${PROVIDERS}\n[fermix_core.routing]\ncron_provider = "local"\ncron_model = "qwen3"\n`);
    const result = await run({ action: 'read' });
    expect(result.data).toEqual({ routing: { cron_provider: 'local', cron_model: 'qwen3' }, providers: ['openai', 'local'], primary: 'openai' });
  });

  it('sets a provider with its model, and an effort, for subagents and cron', async () => {
    const { file, run } = home(PROVIDERS);
    await run({ action: 'set', values: { subagent_provider: 'local', subagent_model: 'qwen3:8b' } });
    await run({ action: 'set', key: 'cron_effort', value: 'low' });
    const routing = loadConfig(file).config.fermix_core.routing;
    expect(routing).toEqual({ subagent_provider: 'local', subagent_model: 'qwen3:8b', cron_effort: 'low' });
    // The providers are untouched.
    expect(Object.keys(loadConfig(file).config.providers)).toEqual(['openai', 'local']);
    // Changing only the model of an existing pair is fine.
    await run({ action: 'set', key: 'subagent_model', value: 'qwen3:14b' });
    expect(loadConfig(file).config.fermix_core.routing.subagent_model).toBe('qwen3:14b');
  });

  it('rejects a provider without its model and a model without its provider', async () => {
    const { file, run } = home(PROVIDERS);
    const before = readFileSync(file, 'utf8');
    for (const args of [
      { action: 'set', key: 'subagent_provider', value: 'local' },
      { action: 'set', key: 'cron_model', value: 'gpt-5-mini' },
    ]) {
      const error = await run(args).catch((e: unknown) => e);
      expect(isFermixError(error) && error.code).toBe('invalid_routing');
      expect(isFermixError(error) && error.hint).toContain('Set both together');
    }
    expect(readFileSync(file, 'utf8')).toBe(before);
  });

  it('rejects an unknown provider and an unknown effort, naming the valid ones', async () => {
    const { run } = home(PROVIDERS);
    const unknown = await run({ action: 'set', values: { cron_provider: 'mistral', cron_model: 'x' } }).catch((e: unknown) => e);
    expect(isFermixError(unknown) && unknown.hint).toBe('Use one of: openai, local.');
    const effort = await run({ action: 'set', key: 'subagent_effort', value: 'maximum' }).catch((e: unknown) => e);
    expect(isFermixError(effort) && effort.code).toBe('invalid_routing');
  });

  it('deletes a pair together, and refuses to delete half of one', async () => {
    const { file, run } = home(`${PROVIDERS}\n[fermix_core.routing]\nsubagent_provider = "local"\nsubagent_model = "qwen3"\n`);
    const half = await run({ action: 'delete', key: 'subagent_provider' }).catch((e: unknown) => e);
    expect(isFermixError(half) && half.code).toBe('invalid_routing');
    await run({ action: 'delete', keys: ['subagent_provider', 'subagent_model'] });
    expect(loadConfig(file).config.fermix_core.routing).toEqual({});
  });

  it('needs key/value or values for set', async () => {
    const { run } = home(PROVIDERS);
    const error = await run({ action: 'set' }).catch((e: unknown) => e);
    expect(isFermixError(error) && error.code).toBe('invalid_key');
  });
});
