import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../test/support/daemon-process.js';

/** Newest modification time of any file under the given paths (files or folders). */
export function newestMtime(paths: string[]): number {
  let newest = 0;
  const visit = (path: string) => {
    if (!existsSync(path)) return;
    const stat = statSync(path);
    if (stat.isDirectory()) {
      for (const entry of readdirSync(path)) visit(join(path, entry));
    } else if (!path.endsWith('.test.ts') && !path.endsWith('.test.tsx')) {
      newest = Math.max(newest, stat.mtimeMs);
    }
  };
  paths.forEach(visit);
  return newest;
}

/**
 * The e2e suite tests the built window (out/renderer), which `npm test` builds first. Run alone, it must
 * not silently test yesterday's build, so a missing or stale build fails with the command that fixes it.
 */
export function requireRendererBuild(): string {
  const index = join(ROOT, 'out', 'renderer', 'index.html');
  if (!existsSync(index)) {
    throw new Error('out/renderer/index.html is missing: the window has not been built. Run `npx electron-vite build` (npm test does it first), then run the e2e tests again.');
  }
  const sources = newestMtime([join(ROOT, 'renderer'), join(ROOT, 'main', 'api'), join(ROOT, 'main', 'core', 'errors.ts')]);
  if (sources > statSync(index).mtimeMs) {
    throw new Error('out/renderer is older than the renderer sources: run `npx electron-vite build`, then run the e2e tests again.');
  }
  return index;
}
