import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { argvCommand, quoteArg, runArgv } from './run-argv.js';
import { createSandbox, type Sandbox } from './sandbox.js';
import { sandboxConfigSchema } from './sandbox-config.js';
import { makeSandboxDirs, type SandboxDirs } from './test-fixture.js';

let dirs: SandboxDirs;
let sandbox: Sandbox;
beforeAll(() => {
  dirs = makeSandboxDirs('fermix-run-argv-');
  sandbox = createSandbox({
    config: sandboxConfigSchema.parse({ env: { mode: 'all' } }),
    home: dirs.home,
    fermixHome: dirs.fermixHome,
    daemonEnv: { PATH: '/usr/bin:/bin', HOME: dirs.home, GIT_DIR: '/elsewhere' },
  });
});
afterAll(async () => {
  await sandbox?.shutdown();
  dirs?.cleanup();
});

describe('runArgv', () => {
  it('passes every word literally: quotes, $, backticks, globs and newlines are never shell syntax', async () => {
    const words = ["it's", '$HOME', '`id`', '$(id)', '*', 'a\nb', '; rm -rf ~', ''];
    const result = await runArgv(sandbox, { argv: ['printf', '[%s]\\n', ...words] });
    expect(result.output).toBe(words.map((w) => `[${w}]\n`).join(''));
    expect(quoteArg("a'b")).toBe(`'a'\\''b'`);
  });

  it('drops the named variables first (mode = "all" would pass GIT_DIR)', async () => {
    expect((await runArgv(sandbox, { argv: ['sh', '-c', 'echo "[$GIT_DIR]"'] })).output).toBe('[/elsewhere]\n');
    expect((await runArgv(sandbox, { argv: ['sh', '-c', 'echo "[$GIT_DIR]"'], unsetEnv: ['GIT_DIR'] })).output).toBe('[]\n');
  });

  it('keeps every sandbox rule: working dir gate, failure tags', async () => {
    await expect(runArgv(sandbox, { argv: ['ls'], working_dir: dirs.outside })).rejects.toMatchObject({ code: 'sandbox_denied' });
    await expect(runArgv(sandbox, { argv: ['false'] })).rejects.toMatchObject({ code: 'exit_nonzero' });
    await expect(runArgv(sandbox, { argv: ['no-such-program-xyz'] })).rejects.toMatchObject({ code: 'executable_not_found' });
  });

  it('refuses an empty argv, NUL bytes and bad env names', () => {
    expect(() => argvCommand([])).toThrow(/No program/);
    expect(() => argvCommand(['echo', 'a\0b'])).toThrow(/NUL/);
    expect(() => argvCommand(['echo'], ['A;B'])).toThrow(/Not an env name/);
    expect(argvCommand(['git', 'status'], ['GIT_DIR'], false)).toBe("unset GIT_DIR; 'git' 'status'");
  });
});
