import { describe, expect, it } from 'vitest';
import { isFermixError } from '../core/errors.js';
import { parseConfigSource } from './config-file.js';
import { configSchema } from './schema.js';
import { didYouMean, knownKeysAt } from './did-you-mean.js';

function configFailure(source: string) {
  try {
    parseConfigSource(source, '/home/me/.fermix/config.toml');
  } catch (error) {
    if (isFermixError(error)) return error;
    throw error;
  }
  throw new Error('the config was accepted');
}

describe('did you mean, for unknown config keys', () => {
  it('suggests the known key of that table, named with its path and line', () => {
    const error = configFailure('[fermix_web]\nprot = 1\n');
    expect(error.message).toBe('/home/me/.fermix/config.toml:2: unknown key "fermix_web.prot" (did you mean "fermix_web.port"?).');
    expect(error.hint).toContain('Rename it to port');
  });

  it('reads the keys through records: a provider table suggests provider fields', () => {
    const error = configFailure('[providers.local]\ntype = "openai-compatible"\nmodel = "qwen3"\nbase_ulr = "http://127.0.0.1:11434/v1"\n');
    expect(error.message).toContain('"providers.local.base_ulr" (did you mean "providers.local.base_url"?)');
  });

  it('suggests nothing for a key that resembles no known one', () => {
    const error = configFailure('[fermix_web]\ncompletely_different = 1\n');
    expect(error.message).not.toContain('did you mean');
    expect(didYouMean('zzzzzzzz', knownKeysAt(configSchema, ['fermix_web']))).toBeUndefined();
    expect(knownKeysAt(configSchema, [])).toContain('providers');
  });
});
