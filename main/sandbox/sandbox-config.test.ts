import { describe, expect, it } from 'vitest';
import { sandboxConfigSchema } from './sandbox-config.js';

describe('[sandbox] config schema', () => {
  it('fills Fermix defaults from an empty section', () => {
    expect(sandboxConfigSchema.parse({})).toEqual({
      mode: 'standard',
      allowed_roots: [],
      blocked_roots: [],
      env: { mode: 'allowlist', allow: [], deny: [], helpers: {} },
      commands: { profile: 'bare' },
      jail: { enabled: true, required: false, limits: { max_processes: 1024, max_memory_mb: 8192, max_open_files: 4096, max_cpu_seconds: 1800, max_file_size_mb: 4096 } },
    });
  });

  it('accepts a full section, with a single command capability', () => {
    const parsed = sandboxConfigSchema.parse({
      mode: 'strict',
      workspace_root: '~/work',
      allowed_roots: ['~/projects/app'],
      blocked_roots: ['~/projects/app/secrets'],
      env: { mode: 'all', allow: ['OPENAI_API_KEY'], deny: ['GITHUB_TOKEN'], helpers: { OPENAI_API_KEY: ['pass', 'show', 'openai'] } },
      commands: { profile: 'assistant', deploy: { command: 'make', args: ['deploy'], pass_env: ['OPENAI_API_KEY'] } },
      jail: { enabled: false },
    });
    expect(parsed.commands.deploy).toMatchObject({ command: 'make', timeout_ms: 30_000, enabled: true });
    expect(parsed.jail).toMatchObject({ enabled: false, required: false });
  });

  it.each([
    [{ mode: 'yolo' }, 'mode'],
    [{ allowd_roots: [] }, '[allowd_roots]'],
    [{ env: { allow: ['1BAD'] } }, 'env.allow.0'],
    [{ env: { allow: ['PATH'] } }, 'env.allow.0'],
    [{ env: { allow: ['A'.repeat(129)] } }, 'env.allow.0'],
    [{ env: { allow: Array.from({ length: 65 }, (_, i) => `NAME_${i}`) } }, 'env.allow'],
    [{ env: { mode: 'some' } }, 'env.mode'],
    [{ commands: { profile: 'everything' } }, 'commands.profile'],
    [{ commands: { deploy: { args: [] } } }, 'commands.deploy.command'],
    [{ jail: { enabled: 'yes' } }, 'jail.enabled'],
    [{ jail: { enable: true } }, 'jail[enable]'],
    [{ jail: { limits: { max_processes: 4 } } }, 'jail.limits.max_processes'],
    [{ jail: { limits: { max_procs: 64 } } }, 'jail.limits[max_procs]'],
    [{ allowed_roots: ['a\0b'] }, 'allowed_roots.0'],
  ])('refuses %j at %s', (input, where) => {
    const result = sandboxConfigSchema.safeParse(input);
    expect(result.success).toBe(false);
    // Unknown keys are reported on their table, with the key names: `jail[enable]`.
    const places = result.error?.issues.map((i) => {
      const keys = (i as { keys?: string[] }).keys;
      return i.path.join('.') + (keys ? `[${keys.join(',')}]` : '');
    });
    expect(places).toContain(where);
  });

  it('names the reserved variable in the message', () => {
    const result = sandboxConfigSchema.safeParse({ env: { allow: ['HOME'] } });
    expect(result.error?.issues[0].message).toBe('HOME is set by the sandbox itself and cannot be on the allow list.');
  });
});
