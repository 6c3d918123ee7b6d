import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox, type SandboxEvent } from './sandbox.js';
import { sandboxConfigSchema } from './sandbox-config.js';
import { makeSandboxDirs, type SandboxDirs } from './test-fixture.js';

let dirs: SandboxDirs;
let sandbox: Sandbox;
const events: SandboxEvent[] = [];

beforeAll(() => {
  dirs = makeSandboxDirs('fermix-facade-');
  sandbox = createSandbox({
    config: sandboxConfigSchema.parse({ env: { allow: ['API_TOKEN', 'UNSET_NAME'] } }),
    home: dirs.home,
    fermixHome: dirs.fermixHome,
    daemonEnv: { PATH: '/usr/bin:/bin', HOME: dirs.home, API_TOKEN: 'tok-0123456789abcdef' },
    onEvent: (e) => events.push(e),
  });
});
afterAll(async () => {
  await sandbox?.shutdown();
  dirs?.cleanup();
});

describe('createSandbox (unjailed)', () => {
  it('runs in the workspace by default, with notes and a redacted trace line', async () => {
    const result = await sandbox.runShell({ command: 'pwd; echo "$API_TOKEN"' });
    expect(result.output).toBe(`${dirs.workspace}\n[REDACTED:env:API_TOKEN]\n`);
    expect(result.jailed).toBe(false);
    expect(result.notes).toEqual([expect.stringContaining('env UNSET_NAME is not set')]);
    expect(result.trace_command).toBe('pwd; echo "$API_TOKEN"');
    expect(events).toContainEqual({ type: 'env_unresolved', name: 'UNSET_NAME', reason: 'missing' });
  });

  it('reports refusals as events before throwing', async () => {
    await expect(sandbox.runShell({ command: 'ls', working_dir: dirs.outside })).rejects.toMatchObject({ code: 'sandbox_denied' });
    await expect(sandbox.runShell({ command: 'rm -rf ~' })).rejects.toMatchObject({ code: 'sandbox_hardline' });
    expect(() => sandbox.policy.checkRead(path.join(dirs.home, '.ssh', 'id_rsa'))).toThrow(/protected/);
    expect(events).toEqual(expect.arrayContaining([
      { type: 'sandbox_denied', reason: 'outside_root', path: dirs.outside, access: 'write' },
      { type: 'sandbox_hardline', rule: 'recursive_delete', command: 'rm -rf ~' },
      { type: 'sandbox_denied', reason: 'protected_path', path: path.join(dirs.home, '.ssh', 'id_rsa'), access: 'read' },
    ]));
  });

  it('judges relative hardline targets in the real working dir', async () => {
    await expect(sandbox.runShell({ command: 'cd .. && cd .. && rm -rf *' })).rejects.toMatchObject({ data: { rule: 'recursive_delete' } });
  });

  it('throws the Fermix failure tag with the output attached', async () => {
    await expect(sandbox.runShell({ command: 'echo nope; exit 2' })).rejects.toMatchObject({
      code: 'exit_nonzero',
      message: 'Command failed (exit code 2):\nnope\n',
      data: { exit_code: 2 },
    });
  });
});
