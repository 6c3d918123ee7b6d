import { describe, expect, it } from 'vitest';
import type { EventEnvelope } from '../../../../../main/api/events.js';
import { applyThreadEvent } from './apply-event.js';
import { buildThread, matchMessagesToTurns } from './build-thread.js';
import { activeTurn, emptyThread, FINISHED, type Thread, type ThreadItem, type TurnSummary } from './thread-types.js';

const C = 'conv-1';
let seq = 0;
const at = (n: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString();
const ev = (type: string, payload: Record<string, unknown>, stream = C): EventEnvelope => ({ stream, seq: ++seq, type, time: at(seq), payload });
const apply = (thread: Thread, ...events: EventEnvelope[]) => events.reduce((acc, event) => applyThreadEvent(acc, event), thread);
const shape = (items: ThreadItem[]) =>
  items.map((item) => {
    switch (item.kind) {
      case 'user': return `user:${item.text}${item.reaction ? ` ${item.reaction}` : ''}`;
      case 'assistant': return `assistant:${item.text}${item.streaming ? '…' : ''}`;
      case 'tool': return `tool:${item.name}:${item.status}`;
      case 'approval': return `approval:${item.capability}:${item.state}:${item.alwaysCovers?.pattern ?? '-'}`;
      case 'turn-end': return `end:${item.status}:${item.usage.output_tokens}`;
      case 'attachment': return `file:${item.filename}`;
      case 'directory': return `folder:${item.path}:${item.state}`;
      default: return item.kind;
    }
  });

const finished = (turnId: string, extra: Record<string, unknown> = {}) => ({
  turn_id: turnId, conversation_id: C, status: 'completed', text: '', stop_reason: 'stop', error: null, provider: 'local', model: 'm', iterations: 1, usage: { input_tokens: 10, output_tokens: 5 }, cost_usd: null, ...extra,
});

describe('applying live events', () => {
  it('streams text, shows a tool call parked for approval with what "always" covers, resumes and finishes', () => {
    let thread: Thread = { ...emptyThread(C), items: [{ kind: 'user', key: 'local-1', turnId: null, text: 'run it', time: at(0), reaction: null, pending: true, failed: null }] };
    thread = apply(thread,
      ev('chat.turn_queued', { turn_id: 'T1', conversation_id: C, position: 0 }),
      ev('chat.turn_started', { turn_id: 'T1', conversation_id: C, resumed: false }),
      ev('chat.delta', { turn_id: 'T1', text: 'Let me ' }),
      ev('chat.delta', { turn_id: 'T1', text: 'check.' }),
    );
    expect(shape(thread.items)).toEqual(['user:run it', 'assistant:Let me check.…']);
    expect(thread.items[0]).toMatchObject({ turnId: 'T1', pending: false, key: 'local-1' });
    const card = { id: 'A1', capability: 'shell', reason: 'runs a command', args: { command: 'ls' }, always_covers: { permission: 'shell', pattern: 'ls *', action: 'allow', source: 'always-answer' } };
    thread = apply(thread,
      ev('chat.tool_call', { turn_id: 'T1', call_id: 'c1', name: 'shell', requested_name: 'shell', args: { command: 'ls' } }),
      ev('approval.requested', { id: 'A1', capability: 'shell', summary: 'runs a command' }),
      ev('chat.parked', { turn_id: 'T1', call_id: 'c1', approval_id: 'A1', capability: 'shell', reason: 'runs a command', card }),
    );
    expect(shape(thread.items)).toEqual(['user:run it', 'assistant:Let me check.', 'tool:shell:parked', 'approval:shell:pending:ls *']);
    expect(activeTurn(thread)).toEqual({ turnId: 'T1', status: 'parked' });
    thread = apply(thread,
      ev('approval.resolved', { id: 'A1', answer: 'once' }),
      ev('chat.resumed', { turn_id: 'T1', approval_id: 'A1', answer: 'once' }),
      ev('chat.tool_result', { turn_id: 'T1', call_id: 'c1', name: 'shell', ok: true, error_code: null, preview: 'a.txt', duration_ms: 12, images: [] }),
      ev('chat.delta', { turn_id: 'T1', text: 'Done.' }),
      ev('chat.turn_finished', finished('T1', { text: 'Done.' })),
    );
    expect(shape(thread.items)).toEqual(['user:run it', 'assistant:Let me check.', 'tool:shell:ok', 'approval:shell:once:ls *', 'assistant:Done.', 'end:completed:5']);
    expect(activeTurn(thread)).toBeNull();
  });

  it('keeps a queued turn below the running one, and ignores events it has already applied', () => {
    let thread = emptyThread(C);
    thread = apply(thread,
      ev('chat.turn_queued', { turn_id: 'T1', conversation_id: C, position: 0 }),
      ev('chat.turn_started', { turn_id: 'T1', conversation_id: C, resumed: false }),
      ev('chat.turn_queued', { turn_id: 'T2', conversation_id: C, position: 1 }),
    );
    const delta = ev('chat.delta', { turn_id: 'T1', text: 'first' });
    thread = apply(thread, delta, delta);
    expect(shape(thread.items)).toEqual(['user:null', 'assistant:first…', 'user:null']);
    expect(thread.items[2]).toMatchObject({ turnId: 'T2' });
    expect(applyThreadEvent(thread, { ...delta, seq: 1 })).toBe(thread);
  });

  it('follows the pause of the running turn, and drops it when the conversation has nothing left to run', () => {
    let thread = apply(emptyThread(C),
      ev('chat.turn_queued', { turn_id: 'T1', conversation_id: C, position: 0 }),
      ev('chat.turn_started', { turn_id: 'T1', conversation_id: C, resumed: false }),
      ev('chat.turn_queued', { turn_id: 'T2', conversation_id: C, position: 1 }),
      ev('chat.turn_hold', { turn_id: 'T1', conversation_id: C, state: 'pausing' }),
    );
    expect(thread.hold).toBe('pausing');
    thread = apply(thread, ev('chat.delta', { turn_id: 'T1', text: 'Let me look.' }));
    expect(shape(thread.items)).toContain('assistant:Let me look.…');
    thread = apply(thread, ev('chat.turn_hold', { turn_id: 'T1', conversation_id: C, state: 'paused' }));
    expect(thread.hold).toBe('paused');
    // Held: the text so far is shown as complete, not as still typing.
    expect(shape(thread.items)).toContain('assistant:Let me look.');
    // T2 still waits behind it, so finishing T1 keeps the pause (the daemon holds T2 too).
    thread = apply(thread, ev('chat.turn_finished', { turn_id: 'T1', conversation_id: C, status: 'stopped', text: '', stop_reason: 'stopped', error: null, provider: null, model: null, iterations: 1, usage: { input_tokens: 0, output_tokens: 0 }, cost_usd: null }));
    expect(thread.hold).toBe('paused');
    thread = apply(thread, ev('chat.turn_finished', { turn_id: 'T2', conversation_id: C, status: 'stopped', text: '', stop_reason: 'stopped', error: null, provider: null, model: null, iterations: 0, usage: { input_tokens: 0, output_tokens: 0 }, cost_usd: null }));
    expect(thread.hold).toBe('running');
  });

  it('fills in the final text when deltas were missed, and marks a stopped turn\'s running tool cancelled', () => {
    let thread = apply(emptyThread(C),
      ev('chat.turn_started', { turn_id: 'T1', conversation_id: C, resumed: false }),
      ev('chat.tool_call', { turn_id: 'T1', call_id: 'c1', name: 'shell', requested_name: 'shell', args: {} }),
      ev('chat.turn_finished', finished('T1', { status: 'stopped', text: 'partial answer' })),
    );
    expect(shape(thread.items)).toEqual(['user:null', 'tool:shell:cancelled', 'assistant:partial answer', 'end:completed:5'.replace('completed', 'stopped')]);
    thread = apply(thread, ev('chat.attachment', { conversation_id: C, id: 'f1', filename: 'report.pdf', mime_type: 'application/pdf', kind: 'document', bytes: 2048, caption: null }));
    expect(shape(thread.items).at(-1)).toBe('file:report.pdf');
  });

  it('shows a folder request and settles it from the system stream', () => {
    let thread = apply(emptyThread(C), ev('directory_access.requested', { conversation_id: C, token: 'K7Q2ZP', path: '/home/me/projects', reason: 'read the repo', message: 'm', expires_at: at(60) }));
    thread = apply(thread, ev('directory_access.settled', { token: 'K7Q2ZP', outcome: 'granted' }, 'system'));
    expect(shape(thread.items)).toEqual(['folder:/home/me/projects:granted']);
  });
});

const turn = (id: string, created: number, status: TurnSummary['status'], calls: TurnSummary['tool_calls'] = [], finished: number | null = null): TurnSummary => ({
  turn_id: id, conversation_id: C, status, text: '', stop_reason: null, error: null, provider: 'local', model: 'm', iterations: 1,
  usage: { input_tokens: 3, output_tokens: 7 }, cost_usd: 0.001, hold: FINISHED.has(status) ? null : 'running', created_at: at(created), finished_at: finished === null ? null : at(finished), tool_calls: calls,
});
const message = (id: number, role: 'user' | 'assistant' | 'tool', content: string, created: number) => ({ id, conversation_id: C, role, content, created_at: at(created) });
const call = (id: string, status: TurnSummary['tool_calls'][number]['status']) => ({ call_id: id, requested_name: 'shell', name: 'shell', args: { command: 'ls' }, status, error_code: null, result_preview: 'out', duration_ms: 5 });

describe('building a thread from what the daemon stored', () => {
  it('matches messages to turns by time, leaving older messages plain', () => {
    const messages = [message(1, 'user', 'old', 1), message(2, 'user', 'a', 10), message(3, 'user', 'b', 20)];
    const matched = matchMessagesToTurns(messages, [turn('T1', 9, 'completed'), turn('T2', 11, 'completed')]);
    expect(matched.get(1)).toBeUndefined();
    expect(matched.get(2)?.turn_id).toBe('T1');
    expect(matched.get(3)?.turn_id).toBe('T2');
  });

  it('uses the turn ids chat.history gives, even when turns were queued long before they started', () => {
    // All three turns were queued at once (1–3); their messages were written as each started (10, 20, 30).
    const messages = [{ ...message(1, 'user', 'a', 10), turn_id: 'T1' }, { ...message(2, 'user', 'b', 20), turn_id: 'T2' }, { ...message(3, 'user', 'c', 30), turn_id: 'T3' }];
    const matched = matchMessagesToTurns(messages, [turn('T2', 2, 'completed', [], 25), turn('T3', 3, 'completed', [], 35)]);
    expect(matched.get(1)).toBeUndefined();
    expect(matched.get(2)?.turn_id).toBe('T2');
    expect(matched.get(3)?.turn_id).toBe('T3');
  });

  it('passes over a turn stopped while queued, which never wrote its message', () => {
    const messages = [message(1, 'user', 'a', 10), message(2, 'user', 'c', 30)];
    // T2 was queued at 11 and stopped at 15 before it started; T3 was queued at 12 and started at 30.
    const matched = matchMessagesToTurns(messages, [turn('T1', 9, 'completed', [], 20), turn('T2', 11, 'stopped', [], 15), turn('T3', 12, 'completed', [], 40)]);
    expect(matched.get(1)?.turn_id).toBe('T1');
    expect(matched.get(2)?.turn_id).toBe('T3');
  });

  it('places tool cards where their results were stored, the pending approval under its parked call, and turn totals', () => {
    const thread = buildThread({
      conversationId: C,
      messages: [message(1, 'user', 'hi', 2), message(2, 'assistant', 'hello', 3), message(3, 'user', 'list', 5), message(4, 'assistant', '', 6), message(5, 'tool', 'out', 7), message(6, 'assistant', 'listed', 8), message(7, 'user', 'write', 11)],
      turns: [turn('T1', 1, 'completed'), turn('T2', 4, 'completed', [call('c1', 'ok')]), turn('T3', 10, 'parked', [call('c2', 'parked')])],
      approvals: [{ id: 'A9', capability: 'shell', policy_class: 'exec', args: {}, reason: 'r', always_covers: { permission: 'shell', pattern: 'ls *', action: 'allow', source: 'always-answer' }, scopes: [], unjailed: false, warning: null, origin: 'chat', conversation_id: C, requested_at: at(12) }],
      directories: [],
      replay: { events: [], latest_seq: 40, complete: true },
    });
    expect(shape(thread.items)).toEqual(['user:hi', 'assistant:hello', 'end:completed:7', 'user:list', 'tool:shell:ok', 'assistant:listed', 'end:completed:7', 'user:write', 'tool:shell:parked', 'approval:shell:pending:ls *']);
    expect(thread.appliedSeq).toBe(40);
    expect(activeTurn(thread)).toEqual({ turnId: 'T3', status: 'parked' });
  });

  it('does not show again the replayed events of older turns beyond the snapshot, but adds a turn queued after it', () => {
    seq = 200;
    const withTurn = (id: number, role: 'user' | 'assistant', content: string, created: number, turnId: string) => ({ ...message(id, role, content, created), turn_id: turnId });
    const messages = [withTurn(1, 'user', 'q1', 10, 'T1'), withTurn(2, 'assistant', 'a1', 11, 'T1'), withTurn(3, 'user', 'q2', 20, 'T2'), withTurn(4, 'assistant', 'a2', 21, 'T2')];
    const events = [
      ev('chat.turn_started', { turn_id: 'T1', conversation_id: C, resumed: false }),
      ev('chat.delta', { turn_id: 'T1', text: 'a1' }),
      ev('chat.turn_finished', { ...finished('T1'), text: 'a1' }),
      ev('chat.turn_started', { turn_id: 'T2', conversation_id: C, resumed: false }),
      ev('chat.turn_finished', { ...finished('T2'), text: 'a2' }),
      ev('chat.turn_queued', { turn_id: 'T3', conversation_id: C, position: 0 }),
    ];
    // Only T2 is in the snapshot's window (chat.turns with a small limit); T1 is older, T3 came after.
    const thread = buildThread({ conversationId: C, messages, turns: [turn('T2', 2, 'completed', [], 22)], approvals: [], directories: [], replay: { events, latest_seq: seq, complete: true } });
    expect(shape(thread.items)).toEqual(['user:q1', 'assistant:a1', 'user:q2', 'assistant:a2', 'end:completed:7', 'user:null']);
    expect(thread.items[0]).toMatchObject({ key: 'u:T1', turnId: 'T1' });
    expect(thread.items.at(-1)).toMatchObject({ turnId: 'T3' });
  });

  it('opens a paused conversation showing it paused, from the state the daemon reports on its unfinished turn', () => {
    const paused = { ...turn('T1', 1, 'running'), hold: 'paused' as const };
    const thread = buildThread({ conversationId: C, messages: [message(1, 'user', 'hi', 2)], turns: [turn('T0', 0, 'completed', [], 1), paused], approvals: [], directories: [], replay: { events: [], latest_seq: 0, complete: true } });
    expect(thread.hold).toBe('paused');
    const idle = buildThread({ conversationId: C, messages: [], turns: [turn('T0', 0, 'completed', [], 1)], approvals: [], directories: [], replay: { events: [], latest_seq: 0, complete: true } });
    expect(idle.hold).toBe('running');
  });

  it('rebuilds a running turn from the replay, so text streamed before the window opened is shown once', () => {
    seq = 100;
    const events = [
      ev('chat.turn_queued', { turn_id: 'T1', conversation_id: C, position: 0 }),
      ev('chat.turn_started', { turn_id: 'T1', conversation_id: C, resumed: false }),
      ev('chat.delta', { turn_id: 'T1', text: 'Hel' }),
      ev('chat.delta', { turn_id: 'T1', text: 'lo' }),
    ];
    const thread = buildThread({ conversationId: C, messages: [message(1, 'user', 'hi', 2)], turns: [turn('T1', 1, 'running')], approvals: [], directories: [], replay: { events, latest_seq: seq, complete: true } });
    expect(shape(thread.items)).toEqual(['user:hi', 'assistant:Hello…']);
    const next = applyThreadEvent(thread, ev('chat.delta', { turn_id: 'T1', text: '!' }));
    expect(shape(next.items)).toEqual(['user:hi', 'assistant:Hello!…']);
  });
});

describe('tool images from chat.history', () => {
  it('puts a stored result\'s images on its card after a reload, and says how many are no longer kept', () => {
    const shot = { mime_type: 'image/png', base64: 'iVBORw0KGgo=' };
    const thread = buildThread({
      conversationId: C,
      messages: [message(1, 'user', 'look', 2), message(2, 'assistant', '', 3), { ...message(3, 'tool', 'old shot', 4), images_omitted: 1 }, { ...message(4, 'tool', 'new shot', 5), images: [shot] }],
      turns: [turn('T1', 1, 'completed', [call('c1', 'ok'), call('c2', 'ok')], 6)],
      approvals: [],
      directories: [],
      replay: { events: [], latest_seq: 0, complete: true },
    });
    const tools = thread.items.filter((item) => item.kind === 'tool');
    expect(tools.map((item) => [item.callId, item.images, item.imagesOmitted])).toEqual([['c1', [], 1], ['c2', [shot], undefined]]);
  });
});
