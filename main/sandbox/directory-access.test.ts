import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config-file.js';
import { createDirectoryAccess, type DirectoryAccess, type PendingDirectoryGrant } from './directory-access.js';
import { createPathPolicy, type PathPolicy } from './path-policy.js';
import { makeSandboxDirs, type SandboxDirs } from './test-fixture.js';

let dirs: SandboxDirs;
let policy: PathPolicy;
let access: DirectoryAccess;
let prompts: PendingDirectoryGrant[];
let settled: Array<[string, string]>;
let granted: string[];
const configFile = () => path.join(dirs.fermixHome, 'config.toml');

function build(ttlMs = 2_000): DirectoryAccess {
  return createDirectoryAccess({
    policy: () => policy,
    configFile: configFile(),
    home: dirs.home,
    ttlMs,
    newToken: () => `TOK${prompts.length}ABC`,
    prompt: (p) => void prompts.push(p),
    onSettled: (token, outcome) => void settled.push([token, outcome]),
    onGranted: (root, config) => {
      granted.push(root);
      policy = createPathPolicy({ mode: 'standard', home: dirs.home, fermixHome: dirs.fermixHome, workspace: dirs.workspace, allowedRoots: config.sandbox.allowed_roots });
    },
  });
}

beforeEach(() => {
  dirs = makeSandboxDirs('fermix-diraccess-');
  policy = createPathPolicy({ mode: 'standard', home: dirs.home, fermixHome: dirs.fermixHome, workspace: dirs.workspace });
  prompts = [];
  settled = [];
  granted = [];
  access = build();
});
afterEach(() => dirs.cleanup());

const owner = { trust: 'operator' as const, origin: 'chat' as const, conversationId: 'c1' };
const ask = (p: string, extra: Record<string, unknown> = {}) => access.request({ path: p, reason: 'needed for the report', baseDir: dirs.workspace, ...owner, ...extra });
const nextPrompt = async () => {
  for (let i = 0; i < 50 && prompts.length === 0; i += 1) await new Promise((r) => setTimeout(r, 5));
  return prompts.at(-1) as PendingDirectoryGrant;
};

describe('directory access tokens', () => {
  it('prompts with the canonical path, the reason and a config diff; /confirm persists the grant', async () => {
    const pending = ask(dirs.outside);
    const prompt = await nextPrompt();
    expect(prompt).toMatchObject({ token: 'TOK0ABC', conversationId: 'c1', path: dirs.outside, reason: 'needed for the report' });
    expect(prompt.diff).toBe(`[sandbox]\n- allowed_roots = []\n+ allowed_roots = [${JSON.stringify(dirs.outside)}]`);
    expect(prompt.message).toContain('/confirm TOK0ABC');
    expect(await access.handleChatCommand('/confirm tok0abc', owner)).toBe(`Granted: ${dirs.outside} was added to [sandbox] allowed_roots.`);
    expect(await pending).toEqual({ outcome: 'granted', path: dirs.outside });
    expect(loadConfig(configFile()).config.sandbox.allowed_roots).toEqual([dirs.outside]);
    expect(loadConfig(configFile()).config.sandbox.mode).toBe('standard'); // the rest of the file is kept
    expect(granted).toEqual([dirs.outside]);
    expect(settled).toEqual([['TOK0ABC', 'granted']]);
    // Single use: the same token answers nothing now.
    expect(await access.handleChatCommand('/confirm TOK0ABC', owner)).toMatch(/expired or was already answered/);
  });

  it('/deny resolves denied and writes nothing', async () => {
    const before = readFileSync(configFile(), 'utf8');
    const pending = ask(dirs.outside);
    await nextPrompt();
    expect(await access.handleChatCommand('/deny TOK0ABC', owner)).toContain('Denied');
    expect(await pending).toMatchObject({ outcome: 'denied' });
    expect(readFileSync(configFile(), 'utf8')).toBe(before);
  });

  it('expires after the TTL', async () => {
    access = build(100);
    const pending = ask(dirs.outside);
    expect(await pending).toMatchObject({ outcome: 'expired' });
    expect(access.pending()).toEqual([]);
  });

  it('binds the token to the owner, the conversation and the chat window', async () => {
    const pending = ask(dirs.outside);
    const { token } = await nextPrompt();
    await expect(access.answer({ token, decision: 'confirm', conversationId: 'c1', trust: 'guest', origin: 'chat' })).rejects.toMatchObject({ code: 'not_owner' });
    await expect(access.answer({ token, decision: 'confirm', conversationId: 'c2', trust: 'operator', origin: 'chat' })).rejects.toMatchObject({ code: 'wrong_conversation' });
    // A process the sandbox started could run `fermix ask "/confirm …"`: the CLI origin never answers.
    await expect(access.answer({ token, decision: 'confirm', conversationId: 'c1', trust: 'operator', origin: 'cli' })).rejects.toMatchObject({ code: 'answer_refused' });
    expect(access.pending('c1')).toHaveLength(1);
    await access.answer({ token, decision: 'deny', conversationId: 'c1', trust: 'operator', origin: 'chat' });
    expect(await pending).toMatchObject({ outcome: 'denied' });
  });

  it('refuses unsafe roots and reachable folders before prompting anyone', async () => {
    for (const p of [dirs.home, '/', '/etc', path.join(dirs.home, '.ssh'), dirs.fermixHome, path.join(dirs.fermixHome, 'logs')]) {
      await expect(ask(p), p).rejects.toMatchObject({ code: 'unsafe_root' });
    }
    await expect(ask('~')).rejects.toMatchObject({ code: 'unsafe_root' });
    await expect(ask('.')).rejects.toMatchObject({ code: 'already_allowed' });
    await expect(ask(path.join(dirs.workspace, 'sub'))).rejects.toMatchObject({ code: 'already_allowed' });
    expect(prompts).toEqual([]);
  });

  it('refuses runs nobody attends: guests, jobs, subagents, no conversation', async () => {
    await expect(ask(dirs.outside, { trust: 'guest' })).rejects.toMatchObject({ code: 'not_attended' });
    await expect(ask(dirs.outside, { origin: 'job' })).rejects.toMatchObject({ code: 'not_attended' });
    await expect(ask(dirs.outside, { origin: 'subagent' })).rejects.toMatchObject({ code: 'not_attended' });
    await expect(ask(dirs.outside, { conversationId: undefined })).rejects.toMatchObject({ code: 'not_attended' });
    expect(prompts).toEqual([]);
  });

  it('strips control characters from the reason so it cannot forge prompt lines', async () => {
    const pending = ask(dirs.outside, { reason: 'x\nReply /confirm FAKE to allow' });
    const prompt = await nextPrompt();
    expect(prompt.reason).toBe('x Reply /confirm FAKE to allow');
    expect(prompt.message.split('\n').filter((l) => l.startsWith('Reply'))).toHaveLength(1);
    await access.answer({ token: prompt.token, decision: 'deny', ...owner });
    await pending;
  });

  it('cancels with the turn: the card goes away and the call rejects', async () => {
    const controller = new AbortController();
    const pending = ask(dirs.outside, { signal: controller.signal });
    const { token } = await nextPrompt();
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: 'cancelled' });
    expect(settled).toEqual([[token, 'cancelled']]);
  });

  it('ignores chat text that is not a /confirm or /deny command', async () => {
    expect(await access.handleChatCommand('please /confirm this', owner)).toBeNull();
    expect(await access.handleChatCommand('/confirm', owner)).toBeNull();
  });
});
