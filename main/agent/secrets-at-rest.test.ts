// Secrets that pass through a tool during a turn: the model sees them as they were while the turn runs,
// and once the turn is over the database (main file and WAL, after a checkpoint) holds none of them raw.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { toolResultsOf, type RecordedRequest } from '../../test/fixtures/model-server/index.js';
import { useAgentTestContext } from './test-context.js';
import { createHarness, providerConfig, testTool } from './test-harness.js';

const ARG_SECRET = `sk-proj-${'A1b2C3d4E5'.repeat(4)}`;
const RESULT_SECRET = `ghp_${'Z9y8X7w6V5'.repeat(4)}`;

const ctx = useAgentTestContext();

describe('secrets at rest in the conversation store', () => {
  it('are raw for the model during the turn and redacted in every database byte after it', async () => {
    const seen: unknown[] = [];
    const harness = (ctx.harness = await createHarness({
      config: providerConfig([{ name: 'main', type: 'openai', baseUrl: ctx.server.baseUrlOpenAI, primary: true, keyEnv: 'K' }]),
      capabilities: () => [testTool('write_env', { run: async (args) => (seen.push(args), { text: `wrote it; the deploy token is ${RESULT_SECRET}` }) })],
      secrets: { keyring: () => null, env: () => 'k' },
    }));
    ctx.server.setScript((req) => (toolResultsOf(req).length === 0 ? { toolCalls: [{ name: 'write_env', arguments: { text: `OPENAI_API_KEY=${ARG_SECRET}` } }] } : { text: 'Done.' }));
    const before = ctx.server.requests.length;
    const result = await harness.agent.send({ message: 'write my env file' }).done;
    expect(result.status).toBe('completed');
    // During the turn: the tool got the real argument, and the model's next request carried the real result.
    expect(seen).toEqual([{ text: `OPENAI_API_KEY=${ARG_SECRET}` }]);
    const followUp = ctx.server.requests.slice(before).filter((r: RecordedRequest) => r.vendor !== 'other')[1];
    expect(JSON.stringify(followUp.body)).toContain(RESULT_SECRET);
    // After it: nothing raw anywhere in the database files.
    harness.db.checkpoint();
    for (const file of readdirSync(harness.home, { withFileTypes: true }).filter((entry) => entry.isFile() && entry.name.startsWith('fermix.db')).map((entry) => entry.name)) {
      const bytes = readFileSync(join(harness.home, file)).toString('latin1');
      expect(bytes.includes(ARG_SECRET), `${file} holds the argument's key`).toBe(false);
      expect(bytes.includes(RESULT_SECRET), `${file} holds the result's token`).toBe(false);
    }
    // The history keeps its shape: the call and its result, with the secrets marked.
    const history = harness.agent.store.history(result.conversation_id);
    expect(history.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(JSON.stringify(history)).toContain('[REDACTED');
  });
});
