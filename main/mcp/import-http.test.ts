import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { planImport } from './import.js';
import { createMcpStack, serverConfig, TOOLS_SERVER, type McpStack } from './test-stack.js';

let stack: McpStack | undefined;
let child: ChildProcess | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
  if (child?.pid) process.kill(child.pid, 'SIGTERM');
  child = undefined;
});

function startHttpFixture(): Promise<number> {
  child = spawn(process.execPath, [TOOLS_SERVER, 'http'], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, FIXTURE_BEARER: 'Bearer t0ken' } });
  return new Promise((resolve, reject) => {
    let out = '';
    child!.stdout!.on('data', (chunk) => {
      out += chunk;
      const match = /PORT (\d+)/.exec(out);
      if (match) resolve(Number(match[1]));
    });
    child!.once('exit', (code) => reject(new Error(`fixture exited ${code}`)));
  });
}

describe('mcp import', () => {
  it('moves secret-looking values to the secret store as references and turns ${env:X} into pass_env', () => {
    const plan = planImport({
      mcpServers: {
        github: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'], env: { GITHUB_PERSONAL_ACCESS_TOKEN: 'ghp_abcdefghijklmnop', LOG_LEVEL: 'debug', HOME_DIR: '${env:HOME_DIR}' } },
        'my remote': { url: 'https://example.com/mcp', headers: { Authorization: 'Bearer abcdefghijklmnopqrstuvwxyz' } },
        bad: { nothing: true },
      },
    }, new Set());
    expect(plan.servers.github).toEqual({ command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'], env: { GITHUB_PERSONAL_ACCESS_TOKEN: '@keyring:MCP_GITHUB_GITHUB_PERSONAL_ACCESS_TOKEN', LOG_LEVEL: 'debug' }, pass_env: ['HOME_DIR'] });
    expect(plan.servers.my_remote).toEqual({ url: 'https://example.com/mcp', headers: { Authorization: '@keyring:MCP_MY_REMOTE_AUTHORIZATION' } });
    expect(plan.secrets.map((secret) => secret.name).sort()).toEqual(['MCP_GITHUB_GITHUB_PERSONAL_ACCESS_TOKEN', 'MCP_MY_REMOTE_AUTHORIZATION']);
    expect(JSON.stringify(plan.servers)).not.toContain('ghp_');
    expect(plan.skipped).toEqual([{ name: 'bad', reason: 'it has neither a command nor a url' }]);
  });

  it('reads VS Code\'s `servers` key, skips input prompts and names already configured', () => {
    const plan = planImport({ servers: { a: { type: 'stdio', command: 'a' }, b: { command: 'b', env: { KEY: '${input:key}' } }, taken: { command: 't' } } }, new Set(['taken']));
    expect(Object.keys(plan.servers)).toEqual(['a']);
    expect(plan.skipped.map((skip) => skip.name).sort()).toEqual(['b', 'taken']);
  });
});

describe('outbound Streamable HTTP servers', () => {
  it('connects with a secret-store header, marks the server and its tools remote, and calls through the invoke boundary', async () => {
    const port = await startHttpFixture();
    stack = createMcpStack({ secrets: { REMOTE_TOKEN: 'Bearer t0ken' } });
    stack.supervisor.apply({ remote: serverConfig({ url: `http://127.0.0.1:${port}/mcp`, headers: { Authorization: '@keyring:REMOTE_TOKEN' }, timeout_ms: 10_000 }) });
    await stack.supervisor.settled();
    const state = stack.supervisor.get('remote')!;
    expect(state).toMatchObject({ status: 'ready', transport: 'streamable_http', remote: true });
    expect(stack.registry.find('mcp_remote_echo')!.metadata.mcp_remote).toBe(true);
    expect((await stack.invoker.execute('mcp_remote_echo', { text: 'over http' }, { trust: 'operator', origin: 'chat' })).text).toBe('over http');
  });

  it('quarantines a server whose header secret is missing, naming the secret', async () => {
    stack = createMcpStack();
    stack.supervisor.apply({ nokey: serverConfig({ url: 'http://127.0.0.1:9/mcp', headers: { Authorization: '@keyring:ABSENT_TOKEN' } }) });
    await stack.supervisor.settled();
    expect(stack.supervisor.get('nokey')).toMatchObject({ status: 'quarantined', attempts: 5 });
    expect(stack.supervisor.get('nokey')!.last_error).toContain('ABSENT_TOKEN');
  });
});
