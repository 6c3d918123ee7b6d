import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/**
 * The Electron binary, or why there is none — the same probe, with the same wording, as scripts/start.mjs. It never calls
 * require('electron') while the binary is missing, because that starts a download from github.com.
 */
export function findElectronBinary(): { path: string; reason?: undefined } | { path?: undefined; reason: string } {
  let packageDir: string;
  try {
    packageDir = dirname(require.resolve('electron/package.json'));
  } catch {
    return { reason: 'the electron package is not installed' };
  }
  if (!process.env.ELECTRON_OVERRIDE_DIST_PATH) {
    const pathFile = join(packageDir, 'path.txt');
    if (!existsSync(pathFile)) return { reason: 'its binary was never downloaded: node_modules/electron/path.txt is missing' };
    const binary = join(packageDir, 'dist', readFileSync(pathFile, 'utf8').trim());
    if (!existsSync(binary)) return { reason: `its binary ${binary} is missing` };
  }
  try {
    return { path: require('electron') as string };
  } catch (error) {
    return { reason: String((error as Error)?.message ?? error).split('\n')[0] };
  }
}
