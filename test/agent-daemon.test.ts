import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { lastMessageIsToolResult, startModelServer, toolNamesOf, toolResultsOf, type ModelServer } from './fixtures/model-server/index.js';
import { apiCall, runFermixAsync, startDaemonProcess, tempHome, waitFor } from './support/daemon-process.js';

let server: ModelServer;
beforeAll(async () => {
  server = await startModelServer();
});
afterAll(() => server.close());

function configure(home: string): void {
  writeFileSync(join(home, 'config.toml'), `[providers.local]\ntype = "openai-compatible"\nbase_url = "${server.baseUrlOpenAI}"\nmodel = "qwen3"\nprimary = true\n`);
}

describe('the agent in a real daemon, with the scripted model server', () => {
  it('`fermix ask` answers from a fresh home with a provider configured', async () => {
    const home = tempHome();
    configure(home);
    server.setScript([{ text: 'Hello from the scripted model.' }]);
    const daemon = await startDaemonProcess(home);
    try {
      const result = await runFermixAsync(home, ['ask', 'say hello']);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain('Hello from the scripted model.');
      // The request carried the runtime prompt and the built-in tools; deferred ones only by name.
      const request = server.requests.at(-1)!;
      expect(request.body.model).toBe('qwen3');
      expect(toolNamesOf(request)).toContain('file_read');
      expect(toolNamesOf(request)).toContain('tool_search');
    } finally {
      daemon.child.kill('SIGTERM');
      await daemon.exited;
    }
  });

  it('parks a shell call for approval, survives a daemon restart, and completes once approved', async () => {
    const home = tempHome();
    configure(home);
    server.setScript((request) => (lastMessageIsToolResult(request)
      ? { text: `Done: ${toolResultsOf(request).map((result) => result.content).join(' ')}` }
      : { toolCalls: [{ name: 'shell', arguments: { command: 'echo approved > approved.txt && echo wrote it' } }] }));
    let daemon = await startDaemonProcess(home);
    const sent = await apiCall(daemon, 'chat.send', { message: 'write the file' });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const { conversation_id, turn_id } = sent.body.result;
    await waitFor(async () => (await apiCall(daemon, 'approvals.list')).body.result.pending.length === 1, 15_000, 'the approval card');
    const card = (await apiCall(daemon, 'approvals.list')).body.result.pending[0];
    expect(card).toMatchObject({ capability: 'shell', conversation_id, always_covers: { permission: 'shell', action: 'allow' } });
    expect(existsSync(join(home, 'workspace', 'approved.txt'))).toBe(false);

    // The daemon stops while the turn waits; nothing has run.
    daemon.child.kill('SIGTERM');
    expect(await daemon.exited).toBe(0);
    expect(existsSync(join(home, 'workspace', 'approved.txt'))).toBe(false);

    daemon = await startDaemonProcess(home);
    try {
      await waitFor(async () => (await apiCall(daemon, 'approvals.list')).body.result.pending.length === 1, 15_000, 'the card after restart');
      const again = (await apiCall(daemon, 'approvals.list')).body.result.pending[0];
      expect(again).toMatchObject({ capability: 'shell', conversation_id, args: { command: 'echo approved > approved.txt && echo wrote it' } });
      expect((await apiCall(daemon, 'approvals.answer', { id: again.id, answer: 'once' })).status).toBe(200);
      await waitFor(async () => (await apiCall(daemon, 'chat.turn', { turn_id })).body.result?.status === 'completed', 15_000, 'the turn to complete');
      const turn = (await apiCall(daemon, 'chat.turn', { turn_id })).body.result;
      expect(turn.text).toContain('wrote it');
      expect(readFileSync(join(home, 'workspace', 'approved.txt'), 'utf8')).toBe('approved\n');
      const audit = (await apiCall(daemon, 'audit.query', { capability: 'shell' })).body.result.records;
      expect(audit[0]).toMatchObject({ decision: 'allow', approval: 'once', origin: 'chat', trust: 'operator', conversation_id });
    } finally {
      daemon.child.kill('SIGTERM');
      await daemon.exited;
    }
  });

  it('an "always" answer stores exactly the rule the card showed in config.toml', async () => {
    const home = tempHome();
    configure(home);
    server.setScript((request) => (lastMessageIsToolResult(request) ? { text: 'ok' } : { toolCalls: [{ name: 'shell', arguments: { command: 'echo always' } }] }));
    const daemon = await startDaemonProcess(home);
    try {
      const sent = await apiCall(daemon, 'chat.send', { message: 'run it' });
      await waitFor(async () => (await apiCall(daemon, 'approvals.list')).body.result.pending.length === 1, 15_000, 'the card');
      const card = (await apiCall(daemon, 'approvals.list')).body.result.pending[0];
      await apiCall(daemon, 'approvals.answer', { id: card.id, answer: 'always' });
      await waitFor(async () => (await apiCall(daemon, 'chat.turn', { turn_id: sent.body.result.turn_id })).body.result?.status === 'completed', 15_000, 'completion');
      const config = readFileSync(join(home, 'config.toml'), 'utf8');
      expect(config).toContain('[[permissions.rules]]');
      expect(config).toContain(`permission = "${card.always_covers.permission}"`);
      expect(config).toContain(`pattern = "${card.always_covers.pattern}"`);
      expect(config).toContain('source = "always-answer"');
    } finally {
      daemon.child.kill('SIGTERM');
      await daemon.exited;
    }
  });
});
