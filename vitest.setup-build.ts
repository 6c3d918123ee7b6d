// Builds once before the suite, so process and browser tests run today's code: the daemon bundle
// (out/node) and the window (out/renderer, out/preload, out/main).
import { execFileSync } from 'node:child_process';
export default function setup() {
  execFileSync(process.execPath, ['scripts/build-node.mjs', '--quiet'], { stdio: 'inherit' });
  execFileSync(process.execPath, ['node_modules/electron-vite/bin/electron-vite.js', 'build', '--logLevel', 'warn'], { stdio: 'inherit' });
}
