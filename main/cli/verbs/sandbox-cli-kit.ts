/**
 * Test set-up shared by the `fermix sandbox …` verb tests: a temporary Fermix home with a workspace and
 * sibling folders outside it, a config.toml, captured output, and `cli()` that runs the verb and reports
 * a thrown error the way main.ts does (exit code + message). Registers its own beforeEach/afterEach.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { homePaths, type HomePaths } from '../../config/home.js';
import { reportError, type CliIo } from '../output.js';
import { sandboxVerb } from './sandbox.js';

export interface SandboxCliKit {
  /** Captured stdout/stderr lines; emptied before each test (same arrays throughout). */
  out: string[];
  err: string[];
  cli(words: string[], json?: boolean): Promise<number>;
  /** The current test's temporary root (holds `fermix-home` and the sibling folders) and home paths. */
  current(): { root: string; paths: HomePaths };
}

export function useSandboxCli(prefix: string, config: string, siblings: readonly string[]): SandboxCliKit {
  let root = '';
  let paths: HomePaths | undefined;
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { out: (t) => void out.push(t), err: (t) => void err.push(t) };
  beforeEach(() => {
    root = realpathSync(mkdtempSync(path.join(tmpdir(), prefix)));
    paths = homePaths(path.join(root, 'fermix-home'));
    mkdirSync(paths.workspace, { recursive: true });
    for (const sibling of siblings) mkdirSync(path.join(root, sibling));
    writeFileSync(paths.config, config);
    out.length = 0;
    err.length = 0;
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));
  return {
    out,
    err,
    async cli(words, json = false) {
      try {
        return await sandboxVerb(io, paths!, words, json);
      } catch (error) {
        return reportError(io, error, json);
      }
    },
    current: () => ({ root, paths: paths! }),
  };
}
