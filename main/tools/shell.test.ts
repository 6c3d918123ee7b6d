import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shell } from './shell.js';
import { failureOf, makeToolFixture, run, type ToolFixture } from './tool-test-fixture.js';

let fx: ToolFixture;
beforeAll(() => {
  fx = makeToolFixture('fermix-shell-');
});
afterAll(async () => fx?.dispose());

const exec = (args: Record<string, unknown>, ctx = fx.context()) => run(shell.executor, args, ctx);

describe('shell executor', () => {
  it('runs in the workspace by default and merges stderr into the output', async () => {
    const result = await exec({ command: 'pwd; echo oops >&2' });
    expect(result.text).toBe(`${fx.workspace}\noops`);
    expect(result.data).toMatchObject({ exit_code: 0, truncated: false });
  });

  it('runs in a working_dir inside the roots, relative to the workspace', async () => {
    mkdirSync(path.join(fx.workspace, 'proj'), { recursive: true });
    expect((await exec({ command: 'pwd', working_dir: 'proj' })).text).toBe(path.join(fx.workspace, 'proj'));
  });

  it('says so when a command prints nothing', async () => {
    expect((await exec({ command: 'true' })).text).toBe('(no output)');
  });

  it('redacts allowed secrets from the output, and notes unresolved env names', async () => {
    const fx2 = makeToolFixture('fermix-shell-secret-', { env: { allow: ['API_TOKEN', 'MISSING_ONE'] } }, { API_TOKEN: 'tok-0123456789abcdef' });
    try {
      const result = await run(shell.executor, { command: 'echo "key=$API_TOKEN"' }, fx2.context());
      expect(result.text).toContain('key=[REDACTED:env:API_TOKEN]');
      expect(result.text).not.toContain('tok-0123456789abcdef');
      expect(result.text.split('\n')[0]).toMatch(/^Note: env MISSING_ONE .*env_unresolved/);
    } finally {
      await fx2.dispose();
    }
  });

  it('fails exit_nonzero with the output in the message', async () => {
    const error = await failureOf(exec({ command: 'echo broken; exit 3' }));
    expect(error.code).toBe('exit_nonzero');
    expect(error.message).toBe('Command failed (exit code 3):\nbroken\n');
  });

  it('fails timeout with the Fermix message', async () => {
    const error = await failureOf(exec({ command: 'sleep 5', timeout_ms: 200 }));
    expect(error.code).toBe('timeout');
    expect(error.message).toBe('Command timed out after 200ms');
  });

  it('fails executable_not_found for a missing program', async () => {
    const error = await failureOf(exec({ command: 'definitely-not-a-program-xyz --help' }));
    expect(error.code).toBe('executable_not_found');
    expect(error.message).toContain('definitely-not-a-program-xyz');
  });

  it('refuses a working dir outside the roots (sandbox_denied) and a missing one (invalid_working_dir)', async () => {
    expect((await failureOf(exec({ command: 'ls', working_dir: fx.outside }))).code).toBe('sandbox_denied');
    expect((await failureOf(exec({ command: 'ls', working_dir: path.join(fx.workspace, 'nope') }))).code).toBe('invalid_working_dir');
  });

  it('refuses hardline commands before running them', async () => {
    const error = await failureOf(exec({ command: 'rm -rf ~' }));
    expect(error.code).toBe('sandbox_hardline');
  });

  it('refuses a blank command (invalid_command) and reports a missing sandbox service', async () => {
    expect((await failureOf(exec({ command: '   ' }))).code).toBe('invalid_command');
    expect((await failureOf(exec({ command: 'true' }, fx.context({ services: {} })))).code).toBe('service_unavailable');
  });

  it('stops the command when the call is cancelled', async () => {
    const controller = new AbortController();
    const pending = exec({ command: 'sleep 10' }, fx.context({ signal: controller.signal }));
    setTimeout(() => controller.abort(), 100);
    const error = await failureOf(pending);
    expect(error.code).toBe('cancelled');
  });
});

describe('shell and the request cwd', () => {
  it('runs in the request cwd on a local operator turn, and resolves a relative working_dir against it', async () => {
    const project = path.join(fx.home, 'projects', 'app');
    mkdirSync(path.join(project, 'src'), { recursive: true });
    expect((await exec({ command: 'pwd' }, fx.context({ origin: 'cli', cwd: project }))).text).toBe(project);
    expect((await exec({ command: 'pwd', working_dir: 'src' }, fx.context({ origin: 'cli', cwd: project }))).text).toBe(path.join(project, 'src'));
    // A job never gets the caller's folder: back to the workspace.
    expect((await exec({ command: 'pwd' }, fx.context({ origin: 'job', cwd: project }))).text).toBe(fx.workspace);
  });
});
