// The MCP work inside a real daemon: operator servers from config.toml registered through compose.ts,
// `fermix mcp list --json` from the real CLI, and inbound MCP called by the SDK's own client over
// Streamable HTTP (`/mcp`) and over stdio (`fermix mcp serve`, a real child process).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDaemon, type RunningDaemon } from '../main/daemon/compose.js';
import { createSecretStore } from '../main/secrets/secret-store.js';
import { spawn } from 'node:child_process';
import { BIN, tempHome } from './support/daemon-process.js';

const TOOLS_SERVER = join(import.meta.dirname, 'fixtures', 'mcp-servers', 'tools-server.mjs');
const TOKEN = 'inbound-test-token-0123456789abcdef';
const CALL = { transport: 'socket' as const, trust: 'operator' as const };

let home: string;
let daemon: RunningDaemon;

function config(inboundEnabled: boolean): string {
  return `[fermix_core]
secret_store = "file"

[mcp.servers.fixture]
command = ${JSON.stringify(process.execPath)}
args = [${JSON.stringify(TOOLS_SERVER)}]
timeout_ms = 10000

[mcp.inbound]
enabled = ${inboundEnabled}
auth_token_ref = "@keyring:FERMIX_MCP_TOKEN"
`;
}

/** The real CLI, spawned asynchronously: a spawnSync would block the in-process daemon it talks to. */
function runFermix(fermixHome: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, FERMIX_HOME: fermixHome }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

async function dispatch(method: string, input: unknown): Promise<any> {
  const answer = await daemon.dispatcher.dispatch(method, input, CALL);
  if (!answer.ok) throw new Error(`${answer.error.code}: ${answer.error.message}`);
  return answer.result;
}

beforeAll(async () => {
  home = tempHome('fermix-mcp-daemon-');
  writeFileSync(join(home, 'config.toml'), config(true));
  createSecretStore({ kind: 'file', fermixHome: home }).set('FERMIX_MCP_TOKEN', TOKEN);
  mkdirSync(join(home, 'workspace'), { recursive: true });
  writeFileSync(join(home, 'workspace', 'note.txt'), 'inbound MCP can read this\n');
  daemon = await startDaemon({ home, port: 0 });
  const started = Date.now();
  while ((await dispatch('mcp.list', {})).servers[0]?.status !== 'ready') {
    if (Date.now() - started > 15_000) throw new Error(`fixture server not ready: ${JSON.stringify(await dispatch('mcp.list', {}))}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
});

afterAll(async () => {
  await daemon?.stop('test done');
  rmSync(home, { recursive: true, force: true });
});

describe('MCP in the daemon', () => {
  it('registers the operator server from config.toml and lists it over the CLI as the §2.18 envelope', async () => {
    const listed = await runFermix(home, ['mcp', 'list', '--json']);
    expect(listed.code).toBe(0);
    const body = JSON.parse(listed.stdout);
    expect(body).toMatchObject({ schema_version: 1, ok: true });
    expect(body.result.servers[0]).toMatchObject({ name: 'fixture', transport: 'stdio', remote: false, status: 'ready', last_error: null });
    expect(body.result.servers[0].tool_count).toBeGreaterThan(5);
    const caps = (await dispatch('capabilities.list', { kind: 'mcp' })).capabilities.map((cap: { name: string }) => cap.name);
    expect(caps).toContain('mcp_fixture_echo');
    const logs = await dispatch('mcp.logs', { name: 'fixture', lines: 50 });
    expect(logs.lines.join('\n')).toContain('fixture-tools: started on stdio');
    const doctor = await dispatch('system.doctor', {});
    expect(doctor.checks.find((row: { id: string }) => row.id === 'mcp_servers')).toMatchObject({ status: 'OK' });
  });

  it('serves /mcp to the SDK client with the bearer token: read_only builtins only, calls audited as mcp-inbound', async () => {
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${daemon.port}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } }));
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toContain('file_read');
      expect(names.some((toolName) => toolName.startsWith('mcp_'))).toBe(false);
      expect(names).not.toContain('file_write');
      expect(names).not.toContain('tool_call');
      const read = (await client.callTool({ name: 'file_read', arguments: { path: 'note.txt' } })) as { content: { text: string }[] };
      expect(read.content[0].text).toContain('inbound MCP can read this');
      const refused = (await client.callTool({ name: 'file_write', arguments: { path: 'x.txt', content: 'no' } })) as { isError?: boolean; content: { text: string }[] };
      expect(refused.isError).toBe(true);
      expect(refused.content[0].text).toContain('not_exposed');
    } finally {
      await client.close();
    }
    const records = await dispatch('audit.query', { capability: 'file_read' });
    expect(records.records.some((record: { origin: string }) => record.origin === 'mcp-inbound')).toBe(true);
  });

  it('answers 401 on a bad token', async () => {
    const response = await fetch(`http://127.0.0.1:${daemon.port}/mcp`, { method: 'POST', headers: { authorization: 'Bearer wrong', 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' });
    expect(response.status).toBe(401);
  });

  it('serves the same tools over stdio through `fermix mcp serve` (SDK client spawning the real CLI)', async () => {
    const client = new Client({ name: 'test', version: '1.0.0' });
    const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', 'serve'], env: { ...process.env, FERMIX_HOME: home } as Record<string, string>, stderr: 'pipe' });
    await client.connect(transport);
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toContain('file_read');
      expect(names.some((toolName) => toolName.startsWith('mcp_'))).toBe(false);
      const read = (await client.callTool({ name: 'file_read', arguments: { path: 'note.txt' } })) as { content: { text: string }[] };
      expect(read.content[0].text).toContain('inbound MCP can read this');
    } finally {
      await client.close();
    }
  });

  it('answers 503 once [mcp.inbound] enabled is turned off', async () => {
    writeFileSync(join(home, 'config.toml'), config(false));
    const response = await fetch(`http://127.0.0.1:${daemon.port}/mcp`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: '{}' });
    expect(response.status).toBe(503);
    const exposed = await runFermix(home, ['mcp', 'list-exposed', '--json']);
    expect(JSON.parse(exposed.stdout).result).toMatchObject({ enabled: false, tools: [] });
  });
});
