// What the model is offered with the daemon's real built-ins: never a capability without an executor,
// and request_directory_access only on an operator's attended turn (issue: never offer what cannot run).
import { describe, expect, it } from 'vitest';
import { toolNamesOf, type RecordedRequest } from '../../test/fixtures/model-server/index.js';
import { ALWAYS_ON_BUILTINS, DEFERRAL_BRIDGES } from '../tools/index.js';
import { useAgentTestContext } from './test-context.js';
import { createHarness, providerConfig, testTool } from './test-harness.js';

const ctx = useAgentTestContext();

// The real built-ins, plus one capability registered without an executor (as a tool is while it is being
// built): it must never be offered, whatever the path.
const unbuilt = testTool('not_built_yet', { executor: undefined, policy_class: 'read_only' });
const builtins = () => [...ALWAYS_ON_BUILTINS, ...DEFERRAL_BRIDGES, unbuilt];
const stubs = builtins().filter((cap) => typeof cap.executor !== 'function').map((cap) => cap.name);
const completions = () => ctx.server.requests.filter((r: RecordedRequest) => r.vendor !== 'other');

async function offeredFor(send: { trust?: 'operator' | 'guest'; origin?: 'chat' | 'job' | 'subagent' | 'mcp-inbound' | 'cli' }): Promise<string[]> {
  const harness = (ctx.harness ??= await createHarness({
    config: providerConfig([{ name: 'main', type: 'openai', baseUrl: ctx.server.baseUrlOpenAI, primary: true, keyEnv: 'K' }]),
    capabilities: builtins,
    secrets: { keyring: () => null, env: () => 'k' },
  }));
  ctx.server.setScript(() => ({ text: 'ok' }));
  const before = completions().length;
  const result = await harness.agent.send({ message: 'hi', interactive: send.origin === 'chat' || send.origin === 'cli', ...send }).done;
  expect(result.status).toBe('completed');
  const request = completions()[before];
  expect(request, 'the model server got no request').toBeDefined();
  return toolNamesOf(request);
}

describe('tools offered to a model', () => {
  it('there are registered capabilities without an executor, so this test can fail', () => {
    expect(stubs).toContain('not_built_yet');
  });

  it('never include a capability without an executor, on any path', async () => {
    for (const send of [{ origin: 'chat' as const }, { origin: 'job' as const }, { trust: 'guest' as const, origin: 'chat' as const }]) {
      const offered = await offeredFor(send);
      expect(offered.length, JSON.stringify(send)).toBeGreaterThanOrEqual(5);
      for (const stub of stubs) expect(offered, `${stub} offered on ${JSON.stringify(send)}`).not.toContain(stub);
    }
  });

  it('offer request_directory_access only to an operator at the keyboard', async () => {
    expect(await offeredFor({ origin: 'chat' })).toContain('request_directory_access');
    expect(await offeredFor({ origin: 'cli' })).toContain('request_directory_access');
    for (const send of [{ origin: 'job' as const }, { origin: 'subagent' as const }, { origin: 'mcp-inbound' as const }, { trust: 'guest' as const, origin: 'chat' as const }]) {
      expect(await offeredFor(send), JSON.stringify(send)).not.toContain('request_directory_access');
    }
  });
});
