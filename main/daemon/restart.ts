/**
 * system.restart for a headless daemon: the daemon cannot start its successor before it has stopped
 * (the pid lock and the port are still its own), so it spawns a small detached waiter that polls for
 * this pid to be gone and then starts the same `fermix daemon` command — on the port it is serving now,
 * so an open window reconnects to the same address. The same detached start `fermix restart` does
 * (main/cli/verbs/lifecycle.ts). Inside Electron the shell's own relaunch hook is used instead.
 */
import { spawn } from 'node:child_process';
import { basename } from 'node:path';
import { FermixError } from '../core/errors.js';

/** The argv of this process when it is `fermix daemon|run …`, else undefined (a test runner, the app). */
export function daemonCommand(argv: readonly string[] = process.argv): string[] | undefined {
  const script = argv[1] ?? '';
  if (!/^fermix(\.cjs|\.mjs|\.js)?$/.test(basename(script)) || !['daemon', 'run'].includes(argv[2] ?? '')) return undefined;
  return argv.slice(1);
}

/** The command with `--port` set to the port served now (0 would pick another one). */
export function successorArgs(command: readonly string[], port: number): string[] {
  const out: string[] = [];
  for (let index = 0; index < command.length; index += 1) {
    if (command[index] === '--port') {
      index += 1;
      continue;
    }
    if (command[index].startsWith('--port=')) continue;
    out.push(command[index]);
  }
  return [...out, '--port', String(port)];
}

const WAITER = `
const [pid, exec, ...args] = process.argv.slice(1);
const { spawn } = require('node:child_process');
const alive = () => { try { process.kill(Number(pid), 0); return true; } catch { return false; } };
const deadline = Date.now() + 60000;
const tick = () => {
  if (alive() && Date.now() < deadline) return setTimeout(tick, 100);
  spawn(exec, args, { detached: true, stdio: 'ignore', env: process.env }).unref();
};
tick();
`;

/** Starts the waiter; throws restart_unavailable when this process is not a `fermix daemon` command. */
export function spawnSuccessor(port: number, argv: readonly string[] = process.argv): { pid: number } {
  const command = daemonCommand(argv);
  if (command === undefined) {
    throw new FermixError({
      code: 'restart_unavailable',
      message: 'This daemon was not started as `fermix daemon`, so it cannot start its own successor.',
      hint: 'Restart it the way it was started, or run `fermix restart`.',
    });
  }
  const waiter = spawn(process.execPath, ['-e', WAITER, String(process.pid), process.execPath, ...successorArgs(command, port)], { detached: true, stdio: 'ignore', env: process.env });
  waiter.unref();
  return { pid: waiter.pid ?? 0 };
}
