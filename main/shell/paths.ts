// Where the shell finds its siblings. The same relative layout holds in a checkout (out/main/index.js next to
// out/renderer, resources/ at the root) and inside the packaged app.asar (files: out/**, resources/**).
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface ShellPaths {
  renderer: string;
  preload: string;
  resources: string;
}

export function shellPaths(mainFile: string = fileURLToPath(import.meta.url)): ShellPaths {
  const outMain = dirname(mainFile);
  return {
    renderer: join(outMain, '..', 'renderer'),
    preload: join(outMain, '..', 'preload', 'index.cjs'),
    resources: join(outMain, '..', '..', 'resources'),
  };
}
