// `npm test`: system packages → build → typecheck → lint → the whole vitest suite under the desktop wrapper
// (Xvfb, D-Bus, gnome-keyring), ending with one plain `N passed, N failed, N skipped` line for CI.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureSystemPackages } from './system-packages.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const extra = process.argv.slice(2);
const step = (title, command, args, options = {}) => {
  const started = Date.now();
  const run = spawnSync(command, args, { cwd: root, stdio: 'inherit', ...options });
  console.log(`── ${title}: ${run.status === 0 ? 'ok' : `failed (exit ${run.status})`} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return run.status === 0;
};

if (!ensureSystemPackages()) process.exit(1);
const npx = (args) => ['npx', ['--no-install', ...args]];
const checks = [
  ['build (daemon bundle)', process.execPath, ['scripts/build-node.mjs']],
  ['build (window, preload, shell)', ...npx(['electron-vite', 'build', '--logLevel', 'warn'])],
  ['typecheck', 'npm', ['run', '--silent', 'typecheck']],
  ['lint', ...npx(['eslint', '.'])],
];
let failedChecks = 0;
for (const [title, command, args] of checks) if (!step(title, command, args)) failedChecks += 1;

const report = join(root, '.ci-vitest.json');
rmSync(report, { force: true });
step('tests', 'sh', ['ci/with-desktop.sh', ...npx(['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...extra]).flat()]);
if (!existsSync(report)) {
  console.log(`0 passed, ${failedChecks + 1} failed, 0 skipped (vitest wrote no report)`);
  process.exit(1);
}
const result = JSON.parse(readFileSync(report, 'utf8'));
// A file that failed without a failing test (it did not load, or a hook threw) counts once; a failing
// test is counted by itself, not again for its file and each describe around it.
const brokenFiles = (result.testResults ?? []).filter((file) => file.status === 'failed' && !(file.assertionResults ?? []).some((test) => test.status === 'failed')).length;
const failed = result.numFailedTests + failedChecks + brokenFiles;
const skipped = (result.numPendingTests ?? 0) + (result.numTodoTests ?? 0);
console.log(`${result.numPassedTests} passed, ${failed} failed, ${skipped} skipped${failedChecks ? ` (${failedChecks} failed build/typecheck/lint step(s) counted as failures)` : ''}`);
process.exit(failed > 0 || !result.success ? 1 : 0);
