/**
 * The agent reads config.toml at the start of every turn (cheap: re-parsed only when the file's
 * mtime or size changes), so a provider added with `fermix providers add` or in Settings → Models
 * works on the next message without a daemon restart.
 */
import { statSync } from 'node:fs';
import { loadConfig } from '../config/config-file.js';
import type { FermixConfig } from '../config/schema.js';

export function createConfigReader(file: string): () => FermixConfig {
  let stamp = '';
  let cached: FermixConfig | undefined;
  return () => {
    let next = 'missing';
    try {
      const info = statSync(file);
      // The inode too: Fermix's own edits replace the file (an atomic rename), which a coarse mtime alone could miss.
      next = `${info.ino}:${info.mtimeMs}:${info.size}`;
    } catch {
      // missing file = all defaults
    }
    if (cached === undefined || next !== stamp) {
      // A broken file throws config_invalid with file, line and key: the turn fails with that.
      cached = loadConfig(file).config;
      stamp = next;
    }
    return cached;
  };
}
