// A cancelled MCP call reaches the server: the invoke boundary hands the SDK its own cancellation object
// (ExecutionContext.cancellation) instead of an AbortSignal made per call, and the SDK must still send
// notifications/cancelled when the turn is aborted or the boundary's timeout stops the call.
import { afterEach, describe, expect, it } from 'vitest';
import { createMcpStack, nodeServer, TOOLS_SERVER, type McpStack } from '../main/mcp/test-stack.js';

let stack: McpStack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

async function until(check: () => boolean, what: string): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > 20_000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const lines = (mcp: McpStack) => mcp.stderr.get('fix') ?? [];

describe('cancelling an outbound MCP call', () => {
  it('sends the cancellation to the server when the turn is aborted, and the call fails as cancelled', async () => {
    const mcp = (stack = createMcpStack());
    // A timeout far beyond the wait below, so only the abort can be what cancels the call at the server.
    mcp.supervisor.apply({ fix: nodeServer(TOOLS_SERVER, {}, { timeout_ms: 600_000 }) });
    await mcp.supervisor.settled();
    const turn = new AbortController();
    const call = mcp.invoker.execute('mcp_fix_sleep', { ms: 30_000 }, { trust: 'operator', origin: 'chat', signal: turn.signal }).catch((error: unknown) => error);
    await until(() => lines(mcp).some((line) => /sleep \d+ started/.test(line)), 'the server to start the call');
    turn.abort();
    expect(await call).toMatchObject({ code: 'cancelled' });
    await until(() => lines(mcp).includes('fixture-tools: sleep cancelled'), 'the server to see the cancellation');
    expect(mcp.audit.query({ capability: 'mcp_fix_sleep' })[0]).toMatchObject({ decision: 'allow', error_code: 'cancelled' });
    // The connection is still good for the next call.
    expect((await mcp.invoker.execute('mcp_fix_echo', { text: 'after' }, { trust: 'operator', origin: 'chat' })).text).toBe('after');
  });

  it('gives an executor that reads `signal` a real AbortSignal that aborts with the call', async () => {
    const mcp = (stack = createMcpStack());
    let seen: AbortSignal | undefined;
    mcp.registry.register({
      name: 'mcp_probe_wait', description: 'Waits until cancelled.', parameters: { type: 'object', properties: {} }, kind: 'mcp', policy_class: 'external_api',
      metadata: { category: 'mcp' }, group: 'mcp', scope_requirements: [], audit_behavior: 'redact_args', is_stateful: false, hidden_from_agent: false,
      executor: (_args, context) => {
        seen = context.signal;
        return new Promise((_resolve, reject) => context.signal.addEventListener('abort', () => reject(context.signal.reason as Error), { once: true }));
      },
    });
    const turn = new AbortController();
    const call = mcp.invoker.execute('mcp_probe_wait', {}, { trust: 'operator', origin: 'chat', signal: turn.signal }).catch((error: unknown) => error);
    await until(() => seen !== undefined, 'the executor to start');
    expect(seen).toBeInstanceOf(AbortSignal);
    expect(seen!.aborted).toBe(false);
    turn.abort();
    expect(await call).toMatchObject({ code: 'cancelled' });
    expect(seen!.aborted).toBe(true);
    expect(seen!.reason).toMatchObject({ code: 'cancelled' });
  });
});
