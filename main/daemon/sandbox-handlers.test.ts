import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandExplanationSchema } from '../api/methods/sandbox.js';
import { createSandbox, type Sandbox } from '../sandbox/sandbox.js';
import { sandboxConfigSchema } from '../sandbox/sandbox-config.js';
import { makeSandboxDirs, type SandboxDirs } from '../sandbox/test-fixture.js';
import { createSandboxHandlers } from './sandbox-handlers.js';

let dirs: SandboxDirs;
let sandbox: Sandbox;
const config = sandboxConfigSchema.parse({ mode: 'standard', env: { allow: ['EXPLAIN_KEY'] }, jail: { required: true } });
const jail = { active: false, reason: 'bubblewrap is not installed.', fix: 'apt-get install bubblewrap', pidNamespace: false };

beforeAll(() => {
  dirs = makeSandboxDirs('fermix-explain-handler-');
  sandbox = createSandbox({ config, home: dirs.home, fermixHome: dirs.fermixHome, daemonEnv: { PATH: '/usr/bin:/bin', HOME: dirs.home } });
});
afterAll(async () => {
  await sandbox?.shutdown();
  dirs?.cleanup();
});

describe('sandbox.explain_command (the daemon side)', () => {
  it("answers with the live sandbox's policy, jail and environment, in the API's schema, running nothing", async () => {
    const handlers = createSandboxHandlers({ sandbox: () => sandbox, jail, config: () => config, home: dirs.home, fermixHome: dirs.fermixHome, daemonEnv: { PATH: '/usr/bin:/bin', HOME: dirs.home, EXPLAIN_KEY: 'k-1234567890' } });
    const explain = (command: string, working_dir?: string) => handlers['sandbox.explain_command']({ command, working_dir }, { transport: 'socket' } as never);

    const refused = commandExplanationSchema.parse(await explain('rm -rf ~/.ssh'));
    expect(refused).toMatchObject({ hardline: 'recursive_delete', refused_by: 'hardline', would_run: false, working_dir: { path: sandbox.workspace, allowed: true } });

    // [sandbox.jail] required with no jail: an innocent command would be refused too, and it says so.
    const innocent = commandExplanationSchema.parse(await explain('git status'));
    expect(innocent).toMatchObject({ hardline: null, refused_by: 'jail_required', would_run: false, jailed: false, jail: { active: false, required: true, reason: 'bubblewrap is not installed.' } });
    expect(innocent.env.names).toEqual(['EXPLAIN_KEY', 'HOME', 'PATH']);
    expect(innocent.env.allowed).toEqual([{ name: 'EXPLAIN_KEY', source: 'daemon' }]);

    const outside = commandExplanationSchema.parse(await explain('ls', dirs.outside));
    expect(outside).toMatchObject({ refused_by: 'working_dir', working_dir: { path: dirs.outside, allowed: false, reason: 'outside_root' } });
    const inProject = commandExplanationSchema.parse(await explain('ls', path.join(dirs.workspace)));
    expect(inProject.working_dir.allowed).toBe(true);
  });
});
