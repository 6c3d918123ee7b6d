import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExecutionContext } from '../core/capabilities/capability.js';
import { createDirectoryAccess, type DirectoryAccess } from '../sandbox/directory-access.js';
import { createSandbox, sandboxConfigSchema, type Sandbox } from '../sandbox/index.js';
import { fileRead } from './file-read.js';
import { requestDirectoryAccess } from './request-directory-access.js';
import { failureOf, makeToolFixture, run, type ToolFixture } from './tool-test-fixture.js';

let fx: ToolFixture;
let current: Sandbox;
let access: DirectoryAccess;
const replies: string[] = [];

beforeAll(() => {
  fx = makeToolFixture('fermix-rda-');
  current = fx.sandbox;
  access = createDirectoryAccess({
    policy: () => current.policy,
    configFile: path.join(fx.fermixHome, 'config.toml'),
    home: fx.home,
    ttlMs: 3_000,
    // The owner answers in the chat as soon as the prompt appears (what the desktop chat handler does).
    prompt: (pending) => {
      setTimeout(() => {
        const answer = pending.reason.includes('deny') ? 'deny' : 'confirm';
        void access.handleChatCommand(`/${answer} ${pending.token}`, { conversationId: pending.conversationId, trust: 'operator', origin: 'chat' }).then((r) => replies.push(r ?? ''));
      }, 20);
    },
    // What the composition root does: a new sandbox from the new config (same home), swapped in.
    onGranted: (_root, config) => {
      current = createSandbox({ config: sandboxConfigSchema.parse(config.sandbox), home: fx.home, fermixHome: fx.fermixHome, daemonEnv: { PATH: process.env.PATH } });
    },
  });
});
afterAll(async () => {
  await current.shutdown();
  await fx?.dispose();
});

const ctx = (over: Partial<ExecutionContext> = {}): ExecutionContext => ({ ...fx.context(over), services: { sandbox: current, directoryAccess: access } });

describe('request_directory_access executor', () => {
  it('parks until the owner confirms, persists the grant, and the retried operation succeeds', async () => {
    const target = path.join(fx.outside, 'notes.txt');
    expect((await failureOf(run(fileRead.executor, { path: target }, ctx()))).code).toBe('sandbox_denied');
    const result = await run(requestDirectoryAccess.executor, { path: fx.outside, reason: 'read the notes you mentioned' }, ctx());
    expect(result.data).toEqual({ outcome: 'granted', path: fx.outside, granted: true });
    expect(result.text).toContain('Retry the operation');
    expect(replies.at(-1)).toContain('Granted');
    expect((await run(fileRead.executor, { path: target }, ctx())).text).toBe('outside the roots');
  });

  it('returns a non-error result when the owner denies', async () => {
    const result = await run(requestDirectoryAccess.executor, { path: path.join(fx.home, 'projects', 'secret-stuff'), reason: 'please deny' }, ctx({ origin: 'cli' }));
    expect(result.data).toMatchObject({ outcome: 'denied', granted: false });
    expect(result.text).toContain('Do not ask again');
  });

  it('fails already_allowed, unsafe_root and not_attended with the exact tags', async () => {
    expect((await failureOf(run(requestDirectoryAccess.executor, { path: fx.workspace, reason: 'x' }, ctx()))).code).toBe('already_allowed');
    expect((await failureOf(run(requestDirectoryAccess.executor, { path: fx.home, reason: 'x' }, ctx()))).code).toBe('unsafe_root');
    expect((await failureOf(run(requestDirectoryAccess.executor, { path: '~/.ssh', reason: 'x' }, ctx()))).code).toBe('unsafe_root');
    expect((await failureOf(run(requestDirectoryAccess.executor, { path: '/etc', reason: 'x' }, ctx()))).code).toBe('unsafe_root');
    expect((await failureOf(run(requestDirectoryAccess.executor, { path: '/srv/data', reason: 'x' }, ctx({ origin: 'job' })))).code).toBe('not_attended');
    expect((await failureOf(run(requestDirectoryAccess.executor, { path: '/srv/data', reason: 'x' }, ctx({ trust: 'guest' })))).code).toBe('not_attended');
  });

  it('reports a daemon without the directory access service as service_unavailable', async () => {
    const error = await failureOf(run(requestDirectoryAccess.executor, { path: fx.outside, reason: 'x' }, fx.context()));
    expect(error.code).toBe('service_unavailable');
  });
});
