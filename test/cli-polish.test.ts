// The CLI as the README describes it, against real daemons: --help on verbs and subverbs, one grant
// grammar (the other spelling accepted), hints in the spelling that works from a checkout, positional
// JSON for `capabilities call`, readable logs that record turns, the doctor's providers row, a fast
// `fermix stop`, `npm start` beside a running daemon, and a daemon that does not outlive its wrapper.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from './fixtures/model-server/index.js';
import { BIN, ROOT, runFermix, runFermixAsync, startDaemonProcess, tempHome, waitFor, type DaemonProcess } from './support/daemon-process.js';
import { isRunning } from '../main/cli/parent-watch.js';

// Hints must not depend on whether the machine running the tests has a `fermix` on PATH.
const CHECKOUT_ENV = { PATH: `${process.execPath.replace(/\/node$/, '')}:/usr/bin:/bin` };

function fermix(home: string, args: string[], env: Record<string, string> = CHECKOUT_ENV) {
  const result = spawnSync(process.execPath, [BIN, ...args], { cwd: ROOT, env: { ...process.env, ...env, FERMIX_HOME: home, FERMIX_CLI: '' }, encoding: 'utf8', timeout: 30_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('fermix without a daemon', () => {
  it('answers --help on verbs and subverbs, with exit 0 and the verb’s usage', () => {
    const home = tempHome();
    const ask = fermix(home, ['ask', '--help']);
    expect(ask.code, ask.stderr).toBe(0);
    expect(ask.stdout).toContain('npx fermix ask [--json] [--session ID]');
    expect(ask.stderr).toBe('');
    const call = fermix(home, ['capabilities', 'call', '-h']);
    expect(call.code).toBe(0);
    expect(call.stdout).toMatch(/capabilities call NAME \[JSON \| --args JSON\]/);
    expect(call.stdout).not.toMatch(/capabilities list/);
    expect(fermix(home, ['grant', '--help']).stdout).toContain('grant path P');
    expect(fermix(home, ['help', 'logs']).stdout).toContain('--json prints the raw lines');
    expect(fermix(home, ['nonsense', '--help']).code).toBe(2);
  });

  it('grants and revokes a path with either spelling', () => {
    const home = tempHome();
    const dir = tempHome('fermix-granted-');
    const granted = fermix(home, ['sandbox', 'grant', 'path', dir]);
    expect(granted.code, granted.stderr).toBe(0);
    expect(readFileSync(join(home, 'config.toml'), 'utf8')).toContain(dir);
    const revoked = fermix(home, ['revoke', 'path', dir]);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(readFileSync(join(home, 'config.toml'), 'utf8')).not.toContain(dir);
  });

  it('prints hints as `npx fermix …` in a checkout and `fermix …` when fermix is on PATH', () => {
    const home = tempHome();
    const checkout = fermix(home, ['status']);
    expect(checkout.code).toBe(3);
    expect(checkout.stderr).toContain('`npx fermix daemon`');
    const installed = fermix(home, ['status'], { PATH: `${join(ROOT, 'bin')}:${CHECKOUT_ENV.PATH}` });
    // bin/fermix.cjs is not named `fermix`: with a real `fermix` on PATH the hint is the plain spelling.
    expect(installed.stderr).toContain('`npx fermix daemon`');
    const linked = tempHome('fermix-bin-');
    spawnSync('ln', ['-s', BIN, join(linked, 'fermix')]);
    expect(fermix(home, ['status'], { PATH: `${linked}:${CHECKOUT_ENV.PATH}` }).stderr).toMatch(/Start it with `fermix daemon`/);
  });

  it('suggests the known key for a typo in config.toml', () => {
    const home = tempHome();
    writeFileSync(join(home, 'config.toml'), '[fermix_web]\nprot = 4031\n');
    const result = fermix(home, ['config', 'validate']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('unknown key "fermix_web.prot" (did you mean "fermix_web.port"?)');
  });

  it('doctor fails the providers row when the only provider is dead, naming why', async () => {
    const home = tempHome();
    const port = await deadPort();
    writeFileSync(join(home, 'config.toml'), `[providers.local]\ntype = "openai-compatible"\nbase_url = "http://127.0.0.1:${port}/v1"\nmodel = "qwen3"\nprimary = true\n`);
    const result = fermix(home, ['doctor', '--json']);
    expect(result.code).toBe(1);
    const row = (JSON.parse(result.stdout).result.checks as { id: string; status: string; detail: string; fix: string }[]).find((check) => check.id === 'providers');
    expect(row).toMatchObject({ status: 'FAIL', detail: expect.stringContaining('refused the connection'), fix: expect.stringMatching(/^Start the model server, or check the base URL/) });
  });
});

describe('fermix against a running daemon', () => {
  let server: ModelServer;
  let home: string;
  let daemon: DaemonProcess;
  beforeAll(async () => {
    server = await startModelServer({ models: ['qwen3'] });
    home = tempHome();
    const fallback = await deadPort();
    writeFileSync(join(home, 'config.toml'), [
      '[providers.local]', 'type = "openai-compatible"', `base_url = "${server.baseUrlOpenAI}"`, 'model = "qwen3"', 'primary = true',
      '[providers.spare]', 'type = "openai-compatible"', `base_url = "http://127.0.0.1:${fallback}/v1"`, 'model = "qwen3"', '',
    ].join('\n'));
    daemon = await startDaemonProcess(home);
  });
  afterAll(async () => {
    if (daemon.child.exitCode === null) daemon.child.kill('SIGTERM');
    await daemon.exited;
    await server.close();
  });

  it('takes the JSON arguments of `capabilities call` as the word after NAME, and points bad ones at inspect', async () => {
    writeFileSync(join(home, 'workspace', 'note.txt'), 'hello from the note\n');
    const call = await runFermixAsync(home, ['capabilities', 'call', 'file_read', '{"path": "note.txt"}']);
    expect(call.code, call.stderr).toBe(0);
    expect(call.stdout).toContain('hello from the note');
    const bad = await runFermixAsync(home, ['capabilities', 'call', 'file_read', '{"nope": 1}']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('fermix capabilities inspect file_read');
    expect(bad.stderr).not.toContain('tool_describe');
    const both = runFermix(home, ['capabilities', 'call', 'file_read', '{}', '--args', '{}']);
    expect(both.code).toBe(2);
    expect(runFermix(home, ['capabilities', 'call', 'file_read', 'not json']).stderr).toContain('must be a JSON object');
  });

  it('logs the turn readable by default; doctor probes the primary, and the fallbacks with --full', async () => {
    server.setScript([{ text: 'Hello there.' }]);
    const ask = await runFermixAsync(home, ['ask', 'say hello']);
    expect(ask.code, ask.stderr).toBe(0);
    const logs = runFermix(home, ['logs', '-n', '200']).stdout;
    expect(logs).toMatch(/INFO  turn started  .*origin=/);
    expect(logs).toMatch(/INFO  turn finished  .*status=completed .*provider=local model=qwen3/);
    // Async: the model server answers from this process, which a spawnSync would block.
    const providersRow = async (args: string[]) => JSON.parse((await runFermixAsync(home, ['doctor', '--json', ...args])).stdout).result.checks.find((row: { id: string }) => row.id === 'providers');
    const doctor = await providersRow([]);
    expect(doctor).toMatchObject({ status: 'OK', detail: expect.stringContaining('1 fallback not probed') });
    const full = await providersRow(['--full']);
    expect(full).toMatchObject({ status: 'WARN', detail: expect.stringContaining('fallback spare (qwen3) refused the connection') });
  });

  it('npm start beside a running daemon prints its URL and exits 0', () => {
    const start = spawnSync(process.execPath, [join(ROOT, 'scripts', 'start.mjs')], { cwd: ROOT, env: { ...process.env, FERMIX_HOME: home, FERMIX_SKIP_BUILD: '1' }, encoding: 'utf8', timeout: 20_000 });
    expect(start.status, start.stderr).toBe(0);
    expect(start.stdout).toContain(`Fermix is already running (pid ${daemon.pid}). Open in a browser: ${daemon.base}#token=`);
  });

  it('fermix stop returns with the process already gone (the behaviour itself: it used to take 5–8 s)', async () => {
    const started = Date.now();
    const stop = await runFermixAsync(home, ['stop']);
    expect(stop.code, stop.stderr).toBe(0);
    // `stop` waits for the pid to disappear, so this bounds "gone"; generous for a loaded 2-core machine.
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(isRunning(daemon.pid)).toBe(false);
  });
});

describe('a daemon under a wrapper', () => {
  it('stops when the wrapper that started it is killed (no orphan)', async () => {
    const home = tempHome();
    // A wrapper like npm: starts the daemon as its child and is then SIGKILLed, passing no signal on.
    const wrapper = spawn(process.execPath, ['-e', `
      const { spawn } = require('node:child_process');
      const child = spawn(process.execPath, [${JSON.stringify(BIN)}, 'daemon', '--port', '0'], { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, FERMIX_WATCH_PARENT: '1' } });
      setInterval(() => {}, 1000);
    `], { env: { ...process.env, FERMIX_HOME: home }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    wrapper.stdout.on('data', (chunk) => (stdout += chunk));
    try {
      await waitFor(() => /Fermix daemon running \(pid \d+/.test(stdout), 20_000, `the daemon to start (${stdout})`);
      const pid = Number(/pid (\d+)/.exec(stdout)![1]);
      wrapper.kill('SIGKILL');
      await waitFor(() => !isRunning(pid), 5_000, 'the daemon to stop after its wrapper died');
      expect(readFileSync(join(home, 'logs', 'fermix.log'), 'utf8')).toMatch(/"reason":"its wrapper process \d+ exited"/);
    } finally {
      if (wrapper.exitCode === null) wrapper.kill('SIGKILL');
    }
  }, 30_000);
});
