import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** This module's own answer, found once: start-up asks for it several times (resources, renderer, schema). */
let ownRoot: string | undefined;

/** The app's root folder (where package.json is), whether we run from sources or from the out/ bundle. */
export function packageRoot(from?: string): string {
  if (from === undefined) return (ownRoot ??= findRoot(fileURLToPath(import.meta.url)));
  return findRoot(from);
}

function findRoot(from: string): string {
  let dir = dirname(from);
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`No package.json above ${from}.`);
    dir = parent;
  }
  return dir;
}
