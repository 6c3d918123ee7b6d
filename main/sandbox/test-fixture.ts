/**
 * Test-only: a throwaway machine layout (HOME, FERMIX_HOME, workspace, a folder outside every root)
 * under one mkdtemp directory, with the secrets a sandbox must keep out of reach. Imported only by
 * *.test.ts files.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface SandboxDirs {
  root: string;
  home: string;
  fermixHome: string;
  workspace: string;
  outside: string;
  cleanup(): void;
}

export function makeSandboxDirs(prefix = 'fermix-sandbox-'): SandboxDirs {
  // realpath: on macOS os.tmpdir() is behind a symlink, and the policy answers with real paths.
  const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), prefix)));
  const home = path.join(root, 'home');
  const fermixHome = path.join(home, '.fermix');
  const workspace = path.join(fermixHome, 'workspace');
  const outside = path.join(root, 'outside');
  for (const dir of [workspace, outside, path.join(home, '.ssh'), path.join(home, 'projects', 'app'), path.join(fermixHome, 'logs'), path.join(fermixHome, 'run'), path.join(fermixHome, 'skills')]) {
    mkdirSync(dir, { recursive: true });
  }
  writeFileSync(path.join(home, '.ssh', 'id_rsa'), 'PRIVATE-KEY-DO-NOT-LEAK\n');
  writeFileSync(path.join(home, '.bashrc'), 'export SECRET_TOKEN=from-bashrc\n');
  writeFileSync(path.join(fermixHome, 'config.toml'), '[sandbox]\nmode = "standard"\n');
  writeFileSync(path.join(fermixHome, 'fermix.db'), 'sqlite');
  writeFileSync(path.join(fermixHome, 'fermix.db-wal'), 'wal');
  writeFileSync(path.join(fermixHome, 'logs', 'fermix.log'), 'log line\n');
  writeFileSync(path.join(outside, 'notes.txt'), 'outside the roots\n');
  writeFileSync(path.join(workspace, 'hello.txt'), 'hello\n');
  return { root, home, fermixHome, workspace, outside, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}
