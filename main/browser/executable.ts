import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, win32 } from 'node:path';
import { FermixError } from '../core/errors.js';

/**
 * Finding a system Chrome, Chromium or Edge. We never download a browser (STACK.md): the person's own
 * install is used through `executablePath`, so the list below is where the vendors' installers put it.
 */
export interface ExecutableProbe {
  platform: NodeJS.Platform;
  env: Record<string, string | undefined>;
  home: string;
  exists(path: string): boolean;
}

export function systemProbe(): ExecutableProbe {
  return { platform: process.platform, env: process.env, home: homedir(), exists: (path) => existsSync(path) };
}

const LINUX = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/snap/bin/chromium',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/opt/google/chrome/chrome',
  '/usr/bin/microsoft-edge',
  '/usr/bin/microsoft-edge-stable',
  '/opt/microsoft/msedge/msedge',
];

const MAC_BUNDLES = [
  'Google Chrome.app/Contents/MacOS/Google Chrome',
  'Chromium.app/Contents/MacOS/Chromium',
  'Microsoft Edge.app/Contents/MacOS/Microsoft Edge',
];

const WINDOWS_SUFFIXES = [
  'Google\\Chrome\\Application\\chrome.exe',
  'Chromium\\Application\\chrome.exe',
  'Microsoft\\Edge\\Application\\msedge.exe',
];

/** Every place looked at, in order of preference (Chromium first on Linux: it is what Debian ships). */
export function candidatePaths(probe: Pick<ExecutableProbe, 'platform' | 'env' | 'home'>): string[] {
  if (probe.platform === 'darwin') {
    return [...MAC_BUNDLES.map((bundle) => join('/Applications', bundle)), ...MAC_BUNDLES.map((bundle) => join(probe.home, 'Applications', bundle))];
  }
  if (probe.platform === 'win32') {
    const roots = [probe.env.PROGRAMFILES, probe.env['PROGRAMFILES(X86)'], probe.env.LOCALAPPDATA].filter((root): root is string => typeof root === 'string' && root !== '');
    return WINDOWS_SUFFIXES.flatMap((suffix) => roots.map((root) => win32.join(root, suffix)));
  }
  return LINUX;
}

export function findBrowserExecutable(probe: ExecutableProbe = systemProbe()): string | undefined {
  return candidatePaths(probe).find((path) => probe.exists(path));
}

/** The one command that installs a browser we can drive, per OS. */
export function installCommand(platform: NodeJS.Platform): string {
  if (platform === 'darwin') return 'brew install --cask google-chrome';
  if (platform === 'win32') return 'winget install --id Google.Chrome';
  return 'sudo apt-get install chromium';
}

export function chromeMissing(probe: Pick<ExecutableProbe, 'platform' | 'env' | 'home'>): FermixError {
  const looked = candidatePaths(probe);
  return new FermixError({
    code: 'chrome_missing',
    message: 'No Chrome, Chromium or Edge is installed where Fermix looks for one.',
    hint: `Install one with \`${installCommand(probe.platform)}\`, then call browser action=doctor again.`,
    data: { looked_in: looked },
  });
}
