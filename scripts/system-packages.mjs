// The Debian packages the test suite needs (STACK.md). `npm test` installs missing ones when it runs
// as root (as CI does) and otherwise prints the one command to run.
import { spawnSync } from 'node:child_process';

export const SYSTEM_PACKAGES = [
  'chromium', 'xvfb', 'xauth', 'libxtst6', 'x11-utils', 'dbus-daemon', 'dbus-bin', 'dbus-x11', 'gnome-keyring',
  'libsecret-tools', 'xprintidle', 'xdotool', 'espeak-ng', 'sox', 'pocketsphinx', 'pocketsphinx-en-us', 'bubblewrap', 'openssl', 'git',
  // strace: the store benchmarks count the daemon's fsyncs with it (bench/suites/store-fsync-counter.ts).
  'strace',
];

export function missingPackages(packages = SYSTEM_PACKAGES) {
  const result = spawnSync('dpkg-query', ['-W', '-f=${Package} ${Status}\n', ...packages], { encoding: 'utf8' });
  const installed = new Set(
    result.stdout.split('\n').filter((line) => line.endsWith('install ok installed')).map((line) => line.split(' ')[0]),
  );
  return packages.filter((name) => !installed.has(name));
}

export function ensureSystemPackages() {
  const missing = missingPackages();
  if (missing.length === 0) return true;
  const command = `apt-get update && apt-get install -y --no-install-recommends ${missing.join(' ')}`;
  if (process.getuid?.() !== 0) {
    console.error(`The test suite needs these Debian packages: ${missing.join(' ')}\nInstall them with:\n  sudo sh -c '${command}'`);
    return false;
  }
  console.log(`Installing missing system packages: ${missing.join(' ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update', '-qq'], ['install', '-y', '-qq', '--no-install-recommends', ...missing]]) {
    const run = spawnSync('apt-get', args, { stdio: 'inherit', env });
    if (run.status !== 0) {
      console.error(`apt-get ${args[0]} failed (exit ${run.status}). Run it by hand: ${command}`);
      return false;
    }
  }
  return true;
}
