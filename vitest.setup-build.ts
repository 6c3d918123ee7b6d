// Builds the node bundle once before the suite, so process tests run today's code.
import { execFileSync } from 'node:child_process';
export default function setup() {
  execFileSync(process.execPath, ['scripts/build-node.mjs', '--quiet'], { stdio: 'inherit' });
}
