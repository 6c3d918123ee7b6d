import { describe, expect, it } from 'vitest';
import { FermixError } from '../errors.js';
import { createApprovalQueue, type ApprovalEvent } from './approvals.js';
import { newAbortController } from './runtime.js';
import { createPermissionGate } from './permission-gate.js';
import { createMemoryRuleStore } from './rules.js';
import { makeCapability } from './test-fixtures.js';

const shell = makeCapability({ name: 'shell', policy_class: 'exec' });

function setup() {
  const rules = createMemoryRuleStore();
  const queue = createApprovalQueue({ rules, now: () => Date.UTC(2025, 0, 1) });
  const gate = createPermissionGate({ rules });
  return { rules, queue, gate };
}

describe('approval queue', () => {
  it('shows the exact rule an "always" answer will store, before anyone agrees', async () => {
    const { rules, queue } = setup();
    const answer = queue.request({ capability: shell, args: { command: 'npm test -- --grep "a*b"' }, reason: 'needs approval', origin: 'chat', conversation_id: 'c1' });
    const [pending] = queue.list();
    expect(pending).toMatchObject({
      capability: 'shell',
      policy_class: 'exec',
      argument: { field: 'command', value: 'npm test -- --grep "a*b"' },
      always_covers: { permission: 'shell', pattern: 'npm test -- --grep "a\\*b"', action: 'allow', source: 'always-answer' },
      conversation_id: 'c1',
      requested_at: '2025-01-01T00:00:00.000Z',
    });
    expect(rules.load()).toEqual([]);
    queue.answer(pending.id, 'always');
    await expect(answer).resolves.toBe('always');
    expect(rules.load()).toEqual([pending.always_covers]);
    expect(queue.list()).toEqual([]);
  });

  it('after "always", the same call is allowed and a different one still asks', async () => {
    const { queue, gate } = setup();
    const pending = queue.request({ capability: shell, args: { command: 'npm test' }, reason: 'r' });
    queue.answer(queue.list()[0].id, 'always');
    await pending;
    expect(gate.decide({ capability: shell, args: { command: 'npm test' }, interactive: true }).decision).toBe('allow');
    expect(gate.decide({ capability: shell, args: { command: 'npm test; rm -rf ~' }, interactive: true }).decision).toBe('ask');
    expect(gate.decide({ capability: shell, args: { command: 'npm testx' }, interactive: true }).decision).toBe('ask');
  });

  it('once and deny store nothing', async () => {
    const { rules, queue } = setup();
    const a = queue.request({ capability: shell, args: { command: 'a' }, reason: 'r' });
    const b = queue.request({ capability: shell, args: { command: 'b' }, reason: 'r' });
    const [first, second] = queue.list();
    queue.answer(first.id, 'once');
    queue.answer(second.id, 'deny');
    await expect(a).resolves.toBe('once');
    await expect(b).resolves.toBe('deny');
    expect(rules.load()).toEqual([]);
  });

  it('refuses unknown ids, double answers and unknown answers', async () => {
    const { queue } = setup();
    expect(() => queue.answer('nope', 'once')).toThrow(expect.objectContaining({ code: 'unknown_approval' }));
    const p = queue.request({ capability: shell, args: {}, reason: 'r' });
    const { id } = queue.list()[0];
    expect(() => queue.answer(id, 'sure' as never)).toThrow(expect.objectContaining({ code: 'invalid_answer' }));
    queue.answer(id, 'once');
    await p;
    expect(() => queue.answer(id, 'always')).toThrow(expect.objectContaining({ code: 'unknown_approval' }));
  });

  it('hides secrets on the card', () => {
    const { queue } = setup();
    void queue.request({ capability: makeCapability({ name: 'mcp_x', kind: 'mcp', policy_class: 'external_api', metadata: { category: 'mcp', secret_fields: ['pin'] } }), args: { pin: '1234', note: 'key sk-proj-4fK9sQ2mZx7Lb1VwT8nR3yUe' }, reason: 'r' });
    expect(queue.list()[0].args).toEqual({ pin: '[REDACTED]', note: expect.stringMatching(/^key \[REDACTED:[a-z_]+\]$/) });
  });

  it('an aborted turn removes the card and rejects with cancelled', async () => {
    const { queue } = setup();
    const events: ApprovalEvent['type'][] = [];
    queue.subscribe((e) => events.push(e.type));
    const controller = newAbortController();
    const p = queue.request({ capability: shell, args: {}, reason: 'r', signal: controller.signal });
    controller.abort();
    await expect(p).rejects.toBeInstanceOf(FermixError);
    await expect(p).rejects.toMatchObject({ code: 'cancelled' });
    expect(queue.list()).toEqual([]);
    expect(events).toEqual(['requested', 'cancelled']);
  });
});
