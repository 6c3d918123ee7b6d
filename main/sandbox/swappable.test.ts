import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCommandRunner } from './runner.js';
import { createSandbox } from './sandbox.js';
import { sandboxConfigSchema } from './sandbox-config.js';
import { createSwappableSandbox } from './swappable.js';
import { makeSandboxDirs, type SandboxDirs } from './test-fixture.js';

let dirs: SandboxDirs;
beforeAll(() => {
  dirs = makeSandboxDirs('fermix-swappable-');
});
afterAll(() => dirs?.cleanup());

describe('createSwappableSandbox', () => {
  it('keeps one identity while a grant swaps in a wider policy; spreading a services record keeps it live', async () => {
    const runner = createCommandRunner();
    const make = (allowed: string[]) => createSandbox({ config: sandboxConfigSchema.parse({ allowed_roots: allowed }), home: dirs.home, fermixHome: dirs.fermixHome, daemonEnv: { PATH: '/usr/bin:/bin' }, runner });
    const sandbox = createSwappableSandbox(make([]));
    const services = { ...{ sandbox } }; // what the capability service does with its services record
    expect(services.sandbox.policy.decide(dirs.outside, 'read').allowed).toBe(false);
    await expect(services.sandbox.runShell({ command: 'pwd', working_dir: dirs.outside })).rejects.toMatchObject({ code: 'sandbox_denied' });
    sandbox.swap(make([dirs.outside]));
    expect(services.sandbox.policy.decide(dirs.outside, 'read').allowed).toBe(true);
    expect((await services.sandbox.runShell({ command: 'pwd', working_dir: dirs.outside })).output).toBe(`${dirs.outside}\n`);
    await services.sandbox.shutdown();
    expect(runner.activeCount).toBe(0);
  });
});
