import { writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/config-file.js';
import type { HomePaths } from '../../config/home.js';
import { useSandboxCli } from './sandbox-cli-kit.js';

const { out, err, cli, current } = useSandboxCli('fermix-cli-sandbox-', '[sandbox]\nmode = "standard"\n', ['project']);
let root: string;
let paths: HomePaths;
beforeEach(() => ({ root, paths } = current()));

const sandboxConfig = () => loadConfig(paths.config).config.sandbox;

describe('fermix sandbox status', () => {
  it('reports mode, roots and whether the OS jail is active — and why not, with the fix', async () => {
    writeFileSync(paths.config, '[sandbox]\nmode = "strict"\n[sandbox.jail]\nenabled = false\n');
    expect(await cli(['sandbox', 'status'])).toBe(0);
    const text = out.join('\n');
    expect(text).toContain('Sandbox mode: strict');
    expect(text).toContain(`Workspace:    ${paths.workspace}`);
    expect(text).toContain('OS jail:      NOT active — The OS jail is disabled in config.');
    expect(text).toContain('Fix: Set `[sandbox.jail] enabled = true` in config.toml.');
  });

  it('answers in JSON with the jail state', async () => {
    expect(await cli(['sandbox', 'status'], true)).toBe(0);
    const result = JSON.parse(out[0]).result;
    expect(result).toMatchObject({ mode: 'standard', daemon_running: false, jail: { active: expect.any(Boolean), reason: expect.any(String) } });
    if (!result.jail.active) expect(result.jail.fix).not.toBe('');
  });
});

describe('fermix sandbox explain / mode', () => {
  it('explains a path: allowed in the workspace, refused outside with the grant hint', async () => {
    await cli(['sandbox', 'explain', path.join(paths.workspace, 'a.txt')]);
    expect(out.at(-1)).toContain('read: allowed');
    await cli(['sandbox', 'explain', path.join(root, 'project')]);
    expect(out.at(-1)).toContain('refused (outside_root)');
    expect(out.at(-1)).toContain(`fermix grant path ${path.join(root, 'project')}`);
    await cli(['sandbox', 'explain', paths.config], true);
    expect(JSON.parse(out.at(-1) as string).result.write).toMatchObject({ allowed: false, reason: 'protected_path' });
  });

  it('sets the mode and says when it applies; refuses an unknown mode as a usage error', async () => {
    expect(await cli(['sandbox', 'mode', 'open'])).toBe(0);
    expect(sandboxConfig().mode).toBe('open');
    expect(out.at(-1)).toContain('It applies when the daemon starts.');
    expect(await cli(['sandbox', 'mode', 'wide'])).toBe(2);
  });
});

describe('fermix grant path / revoke path', () => {
  it('grants a folder (canonical path), says when it is already allowed, and revokes it', async () => {
    const project = path.join(root, 'project');
    expect(await cli(['grant', 'path', project])).toBe(0);
    expect(sandboxConfig().allowed_roots).toEqual([project]);
    expect(await cli(['grant', 'path', path.join(project, 'sub')])).toBe(0);
    expect(out.at(-1)).toContain('already inside the sandbox roots');
    expect(sandboxConfig().allowed_roots).toEqual([project]);
    expect(await cli(['revoke', 'path', `${project}/`])).toBe(0);
    expect(sandboxConfig().allowed_roots).toEqual([]);
  });

  it('refuses unsafe roots before writing anything, and revoking what is not granted', async () => {
    for (const unsafe of ['/', '/etc', homedir(), paths.home, path.join(homedir(), '.ssh')]) {
      expect(await cli(['grant', 'path', unsafe]), unsafe).toBe(1);
      expect(err.at(-1)).toMatch(/Refusing to grant/);
    }
    expect(sandboxConfig().allowed_roots).toEqual([]);
    expect(await cli(['revoke', 'path', path.join(root, 'project')])).toBe(1);
    expect(err.at(-1)).toContain('is not in [sandbox] allowed_roots');
    expect(await cli(['grant', 'file', 'x'])).toBe(2);
  });
});

describe('fermix sandbox commands', () => {
  it('sets the profile, enables and disables presets, adds and removes single commands', async () => {
    await cli(['sandbox', 'commands', 'profile', 'assistant']);
    expect(sandboxConfig().commands.profile).toBe('assistant');
    await cli(['sandbox', 'commands', 'disable', 'dev_tools']);
    expect(sandboxConfig().commands).toMatchObject({ git: { command: 'git', enabled: false }, gh: { enabled: false }, make: { enabled: false } });
    await cli(['sandbox', 'commands', 'enable', 'make']);
    expect(sandboxConfig().commands).toMatchObject({ make: { enabled: true } });
    await cli(['sandbox', 'grant', 'command', 'backup', '--', 'restic', 'backup', '--quiet']);
    expect(sandboxConfig().commands).toMatchObject({ backup: { command: 'restic', args: ['backup', '--quiet'] } });
    await cli(['sandbox', 'commands', 'remove', 'backup']);
    expect(sandboxConfig().commands).not.toHaveProperty('backup');
    await cli(['sandbox', 'commands'], true);
    const listed = JSON.parse(out.at(-1) as string).result.commands as Array<{ name: string; visible: boolean; reason?: string }>;
    expect(listed.find((c) => c.name === 'git')).toMatchObject({ visible: false, reason: 'disabled in config' });
  });

  it('refuses unknown commands, bad profiles and bad names', async () => {
    expect(await cli(['sandbox', 'commands', 'enable', 'nonesuch'])).toBe(1);
    expect(await cli(['sandbox', 'commands', 'profile', 'max'])).toBe(2);
    expect(await cli(['sandbox', 'grant', 'command', 'bad name', '--', 'x'])).toBe(2);
  });
});

describe('fermix sandbox env', () => {
  it('allows, denies, sets a helper (which also allows) and unsets', async () => {
    await cli(['sandbox', 'env', 'allow', 'GH_TOKEN']);
    expect(sandboxConfig().env.allow).toEqual(['GH_TOKEN']);
    await cli(['sandbox', 'env', 'deny', 'GH_TOKEN']);
    expect(sandboxConfig().env).toMatchObject({ allow: [], deny: ['GH_TOKEN'] });
    // parseArgs drops the `--`, so the verb must also accept the helper without it.
    await cli(['sandbox', 'env', 'set', 'OPENAI_API_KEY', 'pass', 'show', 'openai']);
    expect(sandboxConfig().env).toMatchObject({ allow: ['OPENAI_API_KEY'], helpers: { OPENAI_API_KEY: ['pass', 'show', 'openai'] } });
    await cli(['sandbox', 'env', 'unset', 'OPENAI_API_KEY']);
    expect(sandboxConfig().env).toMatchObject({ allow: [], helpers: {} });
  });

  it('refuses names the sandbox sets itself or that are not identifiers, leaving the file unchanged', async () => {
    expect(await cli(['sandbox', 'env', 'allow', 'PATH'])).toBe(1);
    expect(err.at(-1)).toContain('set by the sandbox itself');
    expect(await cli(['sandbox', 'env', 'allow', '1BAD'])).toBe(1);
    expect(sandboxConfig().env.allow).toEqual([]);
  });
});
