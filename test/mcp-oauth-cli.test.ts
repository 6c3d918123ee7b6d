// `fermix mcp auth login NAME --no-browser` / `auth logout NAME` from the real CLI against a real daemon
// whose config.toml names an OAuth-protected Streamable HTTP server (the SDK-built fixture in
// test/fixtures/mcp-oauth/): the CLI prints the URL, the consent is answered as the browser would, and
// the daemon's loopback listener completes the sign-in; the tokens land in the daemon's secret store.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDaemon, type RunningDaemon } from '../main/daemon/compose.js';
import { oauthSecretName } from '../main/mcp/oauth.js';
import { createSecretStore } from '../main/secrets/secret-store.js';
import { BIN, tempHome } from './support/daemon-process.js';
import { startOAuthMcpFixture, type OAuthMcpFixture } from './fixtures/mcp-oauth/server.js';

let home: string;
let daemon: RunningDaemon;
let fixture: OAuthMcpFixture;

interface Run { code: Promise<number | null>; stdout: () => string; stderr: () => string; waitFor: (pattern: RegExp) => Promise<RegExpExecArray> }

/** The real CLI, spawned asynchronously (a spawnSync would block the in-process daemon it talks to). */
function fermix(args: string[]): Run {
  const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, FERMIX_HOME: home }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const watchers: Array<() => void> = [];
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
    for (const watch of watchers) watch();
  });
  return {
    code: new Promise((resolve) => child.on('close', resolve)),
    stdout: () => stdout,
    stderr: () => stderr,
    waitFor: (pattern) => new Promise((resolve, reject) => {
      const check = () => {
        const match = pattern.exec(stderr);
        if (match) resolve(match);
      };
      watchers.push(check);
      child.on('close', () => reject(new Error(`fermix exited before printing ${pattern}: ${stderr}`)));
      check();
    }),
  };
}

const secrets = () => createSecretStore({ kind: 'file', fermixHome: home });

beforeAll(async () => {
  fixture = await startOAuthMcpFixture();
  home = tempHome('fermix-mcp-oauth-cli-');
  writeFileSync(join(home, 'config.toml'), `[fermix_core]\nsecret_store = "file"\n\n[mcp.servers.remote]\nurl = ${JSON.stringify(fixture.url)}\noauth = true\ntimeout_ms = 10000\n`);
  daemon = await startDaemon({ home, port: 0 });
}, 60_000);

afterAll(async () => {
  await daemon?.stop('test done');
  await fixture?.close();
});

describe('fermix mcp auth', () => {
  it('login --no-browser prints the URL, completes through the loopback redirect, and the tools register', async () => {
    const login = fermix(['mcp', 'auth', 'login', 'remote', '--no-browser', '--timeout', '60']);
    const [, url] = await login.waitFor(/sign in to the MCP server remote:\n(\S+)/);
    const answer = await fixture.answerConsent(url, 'approve');
    expect((await fetch(answer.location!)).status).toBe(200);
    expect(await login.code).toBe(0);
    expect(login.stdout()).toContain('Signed in to remote. Status: ready, 2 tools.');
    expect(daemon.capabilities.registry.list({ kind: 'mcp' }).map((cap) => cap.name).sort()).toEqual(['mcp_remote_echo', 'mcp_remote_whoami']);
    expect(secrets().get(oauthSecretName('remote', 'TOKENS'))).toContain('"access_token"');
  });

  it('logout signs out; mcp list then says how to sign in again', async () => {
    const logout = fermix(['mcp', 'auth', 'logout', 'remote']);
    expect(await logout.code).toBe(0);
    expect(logout.stdout()).toContain('Signed out of remote (revoked at the server too). Status: needs_auth.');
    expect(secrets().get(oauthSecretName('remote', 'TOKENS'))).toBeNull();
    const list = fermix(['mcp', 'list']);
    expect(await list.code).toBe(0);
    expect(list.stdout()).toContain('needs_auth (fermix mcp auth login remote)');
  });

  it('names the usage when the action is missing', async () => {
    const run = fermix(['mcp', 'auth', 'remote']);
    expect(await run.code).toBe(2);
    expect(run.stderr()).toContain('fermix mcp auth login NAME');
  });
});
