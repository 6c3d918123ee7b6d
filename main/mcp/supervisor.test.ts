import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isFermixError } from '../core/errors.js';
import { createMcpStack, CRASH_SERVER, nodeServer, serverConfig, TOOLS_SERVER, type McpStack } from './test-stack.js';

let stack: McpStack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const operator = { trust: 'operator' as const, origin: 'chat' as const };

describe('outbound stdio MCP servers', () => {
  it('registers each tool as mcp_<server>_<tool> (kind mcp, group mcp, external_api, overrides honoured) and calls it through the invoke boundary', async () => {
    stack = createMcpStack();
    stack.supervisor.apply({ Fix: nodeServer(TOOLS_SERVER, {}, { tools: { add: { policy_class: 'read_only' }, crash: { hidden_from_agent: true } } }) });
    await stack.supervisor.settled();
    const state = stack.supervisor.get('Fix')!;
    expect(state.status).toBe('ready');
    expect(state.tools).toContain('mcp_fix_fetch_url_v2');
    const echo = stack.registry.find('mcp_fix_echo')!;
    expect(echo).toMatchObject({ kind: 'mcp', group: 'mcp', policy_class: 'external_api', hidden_from_agent: false });
    expect(echo.metadata).toMatchObject({ mcp_server: 'Fix', mcp_tool: 'echo', mcp_remote: false });
    expect(stack.registry.find('mcp_fix_add')!.policy_class).toBe('read_only');
    expect(stack.registry.find('mcp_fix_crash')!.hidden_from_agent).toBe(true);
    const result = await stack.invoker.execute('mcp_fix_echo', { text: 'hello' }, operator);
    expect(result.text).toBe('hello');
    const sum = await stack.invoker.execute('mcp_fix_add', { a: 2, b: 3 }, operator);
    expect(sum.data).toEqual({ sum: 5 });
    expect(stack.stderr.get('Fix')).toContain('fixture-tools: started on stdio');
    const records = stack.audit.query({ capability: 'mcp_fix_echo' });
    expect(records[0]).toMatchObject({ decision: 'allow', origin: 'chat' });
  });

  it('quarantines a server that crashes on start after 5 attempts while another keeps working, and restart starts it fresh', async () => {
    stack = createMcpStack();
    const count = join(stack.dir, 'launches.txt');
    stack.supervisor.apply({ broken: nodeServer(CRASH_SERVER, { FIXTURE_COUNT_FILE: count }), good: nodeServer(TOOLS_SERVER) });
    await stack.supervisor.settled();
    const broken = stack.supervisor.get('broken')!;
    expect(broken.status).toBe('quarantined');
    expect(broken.attempts).toBe(5);
    expect(broken.last_error).toMatch(/closed|connection/i);
    expect(readFileSync(count, 'utf8').trim().split('\n')).toHaveLength(5);
    expect(stack.registry.list({ kind: 'mcp' }).some((cap) => cap.metadata.mcp_server === 'broken')).toBe(false);
    expect(stack.supervisor.get('good')!.status).toBe('ready');
    expect((await stack.invoker.execute('mcp_good_echo', { text: 'still here' }, operator)).text).toBe('still here');
    expect(stack.events.some((event) => event.phase === 'quarantine' && event.server === 'broken')).toBe(true);

    expect(stack.supervisor.restart('broken')).toBe(true);
    await stack.supervisor.settled();
    expect(stack.supervisor.get('broken')!.status).toBe('quarantined');
    expect(readFileSync(count, 'utf8').trim().split('\n')).toHaveLength(10);
  });

  it('reconnects by itself after a transport blip, unregistering the tools while it is down', async () => {
    stack = createMcpStack();
    stack.supervisor.apply({ blip: nodeServer(TOOLS_SERVER) });
    await stack.supervisor.settled();
    const firstPid = stack.supervisor.get('blip')!.pid!;
    await stack.invoker.execute('mcp_blip_crash', {}, operator);
    await until(() => stack!.supervisor.get('blip')!.pid !== firstPid && stack!.supervisor.get('blip')!.status === 'ready', 'the reconnect');
    expect(stack.events.some((event) => event.phase === 'owner_down')).toBe(true);
    expect((await stack.invoker.execute('mcp_blip_echo', { text: 'back' }, operator)).text).toBe('back');
  });

  it('re-syncs on tools/list_changed', async () => {
    stack = createMcpStack();
    stack.supervisor.apply({ sync: nodeServer(TOOLS_SERVER) });
    await stack.supervisor.settled();
    expect(stack.registry.find('mcp_sync_echo')!.description).toBe('Echo the text back.');
    await stack.invoker.execute('mcp_sync_mutate', { description: 'Echo, changed.' }, operator);
    await until(() => stack!.registry.find('mcp_sync_echo')?.description === 'Echo, changed.', 'the re-sync');
    expect(stack.supervisor.get('sync')!.changed_tools).toEqual(['echo']);
  });

  it('lets progress notifications extend a call past timeout_ms, and times out a silent one', async () => {
    stack = createMcpStack();
    // timeout_ms also bounds connect + initialize, so it must leave room for a node start on a loaded
    // machine; the calls below run well past it (60 × 50 ms = 3 s with progress; 3.5 s silent).
    stack.supervisor.apply({ slow: nodeServer(TOOLS_SERVER, {}, { timeout_ms: 2_000 }) });
    await stack.supervisor.settled();
    const done = await stack.invoker.execute('mcp_slow_slow', { steps: 60 }, operator);
    expect(done.text).toBe('done after 60 steps');
    const error = await stack.invoker.execute('mcp_slow_sleep', { ms: 3_500 }, operator).catch((caught: unknown) => caught);
    expect(isFermixError(error) && error.message).toMatch(/timed out|timeout/i);
  });

  it('kills the whole process tree on close, and unregisters a disabled server', async () => {
    stack = createMcpStack();
    const pidFile = join(stack.dir, 'server.pid');
    // sh stays the parent (the `; true` keeps it from exec'ing node): killing only sh's pid would leave node running.
    const wrapped = serverConfig({ command: '/bin/sh', args: ['-c', `"${process.execPath}" "${TOOLS_SERVER}"; true`], env: { FIXTURE_PID_FILE: pidFile }, timeout_ms: 10_000 });
    stack.supervisor.apply({ tree: wrapped });
    await stack.supervisor.settled();
    expect(stack.supervisor.get('tree')!.status).toBe('ready');
    const nodePid = Number(readFileSync(pidFile, 'utf8'));
    expect(nodePid).not.toBe(stack.supervisor.get('tree')!.pid);
    expect(alive(nodePid)).toBe(true);
    stack.supervisor.apply({ tree: { ...wrapped, enabled: false } });
    await until(() => !alive(nodePid), 'the server process to end');
    expect(stack.supervisor.get('tree')!.status).toBe('disabled');
    expect(stack.registry.list({ kind: 'mcp' })).toHaveLength(0);
    expect(existsSync(pidFile)).toBe(true);
  });
});
