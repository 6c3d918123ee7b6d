// The Electron binary's path, or why there is none. Shared by `npm start` (scripts/start.mjs) and the
// Electron e2e spec (e2e/support/electron-binary.ts), so both say the same thing in the same words.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/** @returns {{ path: string, reason?: undefined } | { path?: undefined, reason: string }} Never triggers the package's lazy download. */
export function findElectronBinary() {
  let packageDir;
  try {
    packageDir = dirname(require.resolve('electron/package.json'));
  } catch {
    return { reason: 'the electron package is not installed' };
  }
  // Since Electron 35, require('electron') downloads the binary on first use; on a machine without
  // github.com that costs seconds and prints a stack trace, so look for the binary before asking.
  if (!process.env.ELECTRON_OVERRIDE_DIST_PATH) {
    const pathFile = join(packageDir, 'path.txt');
    if (!existsSync(pathFile)) return { reason: 'its binary was never downloaded: node_modules/electron/path.txt is missing' };
    const binary = join(packageDir, 'dist', readFileSync(pathFile, 'utf8').trim());
    if (!existsSync(binary)) return { reason: `its binary ${binary} is missing` };
  }
  try {
    return { path: require('electron') };
  } catch (error) {
    return { reason: String(error?.message ?? error).split('\n')[0] };
  }
}
