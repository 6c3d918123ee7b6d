import { describe, expect, it } from 'vitest';
import { parseConfigSource } from './config-file.js';

describe('[audit] max_size_mb', () => {
  it('defaults to 200 MB beside retention_days and takes a whole number of MB', () => {
    expect(parseConfigSource('', 'config.toml').config.audit).toEqual({ retention_days: 90, max_size_mb: 200 });
    expect(parseConfigSource('[audit]\nmax_size_mb = 50\n', 'config.toml').config.audit.max_size_mb).toBe(50);
  });

  it('refuses zero, fractions and text, naming the line and key', () => {
    for (const value of ['0', '1.5', '"big"']) {
      expect(() => parseConfigSource(`[audit]\nretention_days = 30\nmax_size_mb = ${value}\n`, 'config.toml')).toThrow(/config\.toml:3: .*audit\.max_size_mb/);
    }
  });
});
