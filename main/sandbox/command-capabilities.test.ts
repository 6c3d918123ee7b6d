import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRegistry } from '../core/capabilities/registry.js';
import { applyCommandCapabilities, commandCapabilities, describeCommands } from './command-capabilities.js';
import { createSandbox, type Sandbox } from './sandbox.js';
import { sandboxConfigSchema } from './sandbox-config.js';
import { makeSandboxDirs, type SandboxDirs } from './test-fixture.js';

let dirs: SandboxDirs;
let bin: string;
let sandbox: Sandbox;
let daemonEnv: Record<string, string>;

beforeAll(() => {
  dirs = makeSandboxDirs('fermix-cmdcaps-');
  bin = path.join(dirs.root, 'bin');
  mkdirSync(bin);
  // Stand-ins for the real CLIs: each prints its argv and whether it got its key.
  for (const [name, env] of [['codex', 'OPENAI_API_KEY'], ['make', 'NONE']]) {
    const file = path.join(bin, name);
    writeFileSync(file, `#!/bin/sh\necho "${name} $*"\n[ -n "$${env}" ] && echo "key=$${env}"\nexit 0\n`);
    chmodSync(file, 0o755);
  }
  daemonEnv = { PATH: `${bin}:/usr/bin:/bin`, HOME: dirs.home, OPENAI_API_KEY: 'sk-test-0123456789abcdef' };
  sandbox = createSandbox({ config: sandboxConfigSchema.parse({ env: { allow: ['OPENAI_API_KEY'] } }), home: dirs.home, fermixHome: dirs.fermixHome, daemonEnv });
});
afterAll(async () => {
  await sandbox?.shutdown();
  dirs?.cleanup();
});

// `unknown`: zod's input type for a table with both `profile` and a catch-all is not expressible in TS.
const config = (input: unknown) => sandboxConfigSchema.parse(input);
/** Only the stand-ins are on this PATH (the machine's own git or make must not decide the test). */
const stubEnv = () => ({ PATH: bin });
const visible = (input: unknown) => commandCapabilities({ config: config(input), daemonEnv: stubEnv() }).map((c) => c.name);

describe('command presets and single commands', () => {
  it('bare has no presets; assistant and extended show only presets whose executable and env names are available', () => {
    expect(visible({})).toEqual([]);
    expect(visible({ commands: { profile: 'assistant' } })).toEqual(['make']);
    expect(visible({ commands: { profile: 'extended' }, env: { allow: ['OPENAI_API_KEY'] } })).toEqual(['codex', 'make']);
    const why = describeCommands({ config: config({ commands: { profile: 'assistant' } }), daemonEnv: stubEnv() });
    expect(why.find((s) => s.name === 'codex')?.reason).toMatch(/env OPENAI_API_KEY not allowed/);
    expect(why.find((s) => s.name === 'claude_code')?.reason).toBe('claude is not on the daemon PATH');
    expect(describeCommands({ config: config({}), daemonEnv: stubEnv() }).find((s) => s.name === 'make')?.reason).toMatch(/profile is bare/);
  });

  it('single commands appear under every profile; enabled = false hides them and overrides a preset', () => {
    expect(visible({ commands: { backup: { command: 'restic', args: ['backup'] } } })).toEqual(['backup']);
    expect(visible({ commands: { profile: 'assistant', make: { command: 'make', enabled: false } } })).toEqual([]);
    const cap = commandCapabilities({ config: config({ commands: { backup: { command: 'restic', timeout_ms: 5000 } } }), daemonEnv })[0];
    expect(cap).toMatchObject({ kind: 'builtin', policy_class: 'exec', group: 'system', timeout_ms: 15_000, metadata: { sandbox_command: true, command_source: 'config' } });
  });

  it('hides commands whose names are invalid or taken by built-ins, instead of breaking the registry swap', () => {
    const input = config({ commands: { shell: { command: 'sh' }, 'bad name': { command: 'x' }, ok: { command: 'true' } } });
    const statuses = describeCommands({ config: input, daemonEnv, reserved: new Set(['shell']) });
    expect(statuses.filter((s) => s.visible).map((s) => s.name)).toEqual(['ok']);
    expect(statuses.find((s) => s.name === 'shell')?.reason).toMatch(/taken by a built-in/);
  });

  it('swaps the whole family atomically in the registry on a config change', () => {
    const registry = createRegistry();
    expect(applyCommandCapabilities(registry, { config: config({ commands: { a: { command: 'true' }, b: { command: 'true' } } }), daemonEnv })).toEqual({ removed: [], added: ['a', 'b'] });
    const next = applyCommandCapabilities(registry, { config: config({ commands: { profile: 'assistant', b: { command: 'true' } } }), daemonEnv: stubEnv() });
    expect(next.removed.sort()).toEqual(['a', 'b']);
    expect(registry.list().map((c) => c.name).sort()).toEqual(['b', 'make']);
  });

  it('runs the command through the sandbox with its pass_env value redacted and extra args appended', async () => {
    const [codex] = commandCapabilities({ config: config({ commands: { profile: 'assistant' }, env: { allow: ['OPENAI_API_KEY'] } }), daemonEnv });
    const context = { trust: 'operator' as const, origin: 'chat' as const, signal: new AbortController().signal, services: { sandbox } };
    const result = await codex.executor!({ args: ['exec', "it's; rm -rf ~"] }, context);
    expect(result.text).toBe("codex exec it's; rm -rf ~\nkey=[REDACTED:env:OPENAI_API_KEY]");
    await expect(codex.executor!({ working_dir: dirs.outside }, context)).rejects.toMatchObject({ code: 'sandbox_denied' });
    await expect(codex.executor!({}, { ...context, services: {} })).rejects.toMatchObject({ code: 'service_unavailable' });
  });
});
