// `react` with no text ends the turn without a further model call (Fermix: "a delivered reaction with no
// text ends the turn"); with text, or when the reaction fails, the loop goes on as usual.
import { describe, expect, it } from 'vitest';
import { toolResultsOf } from '../../test/fixtures/model-server/index.js';
import { react } from '../tools/react.js';
import { useAgentTestContext } from './test-context.js';
import { createHarness, providerConfig, type Harness } from './test-harness.js';

const ctx = useAgentTestContext();
const reactions: Array<{ conversationId: string; emoji: string }> = [];

async function start(supported = true): Promise<Harness> {
  ctx.harness = await createHarness({
    config: providerConfig([{ name: 'main', type: 'openai', baseUrl: ctx.server.baseUrlOpenAI, primary: true, keyEnv: 'K' }]),
    capabilities: () => [react],
    secrets: { keyring: () => null, env: () => 'k' },
    overrides: { services: () => ({ reactions: { supported, react: async (input: { conversationId: string; emoji: string }) => void reactions.push(input) } }) },
  });
  return ctx.harness;
}
const completions = () => ctx.server.requests.filter((r) => r.vendor !== 'other').length;

describe('a reaction ends the turn', () => {
  it('react without text: one model call, the emoji delivered, the turn completed with no text', async () => {
    const h = await start();
    ctx.server.setScript((req) => (toolResultsOf(req).length === 0 ? { toolCalls: [{ name: 'react', arguments: { emoji: '👍' } }] } : { text: 'this second call must not happen' }));
    reactions.length = 0;
    const before = completions();
    const result = await h.agent.send({ message: 'ok thanks' }).done;
    expect(result).toMatchObject({ status: 'completed', text: '', stop_reason: 'reaction' });
    expect(completions() - before).toBe(1);
    expect(reactions).toEqual([{ conversationId: result.conversation_id, emoji: '👍' }]);
  });

  it('react alongside text, or a reaction that fails, goes on to the next model call', async () => {
    const h = await start(false);
    ctx.server.setScript((req) => (toolResultsOf(req).length === 0 ? { toolCalls: [{ name: 'react', arguments: { emoji: '🎉' } }] } : { text: 'Shipped, congratulations!' }));
    const before = completions();
    const failed = await h.agent.send({ message: 'we shipped it' }).done;
    expect(failed).toMatchObject({ status: 'completed', text: 'Shipped, congratulations!' });
    expect(completions() - before).toBe(2);

    await h.close();
    const withText = await start();
    ctx.server.setScript((req) => (toolResultsOf(req).length === 0 ? { text: 'Nice!', toolCalls: [{ name: 'react', arguments: { emoji: '🎉' } }] } : { text: 'Anything else?' }));
    const again = completions();
    const result = await withText.agent.send({ message: 'we shipped it' }).done;
    expect(result.text).toBe('Anything else?');
    expect(completions() - again).toBe(2);
  });
});
