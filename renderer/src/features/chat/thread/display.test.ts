// What the thread shows, derived from the store's rows: one card per call, the thinking row, the pause
// banner where the turn is held, queued messages, and footers that say only what is known.
import { describe, expect, it } from 'vitest';
import { displayItems, usageWords } from './display.js';
import { emptyThread, type Thread, type ThreadItem } from './thread-types.js';

const user = (turnId: string, text = 'hi'): ThreadItem => ({ kind: 'user', key: `u:${turnId}`, turnId, text, time: '2026-01-01T00:00:00.000Z', reaction: null, pending: false, failed: null });
const tool = (turnId: string, callId: string): ThreadItem => ({ kind: 'tool', key: `t:${turnId}:${callId}`, turnId, callId, name: 'shell', requestedName: 'shell', args: { command: 'ls' }, status: 'parked', errorCode: null, preview: null, durationMs: null, images: [], startedAt: null });
const approval = (turnId: string, callId: string | null): ThreadItem => ({ kind: 'approval', key: 'p:A1', turnId, approvalId: 'A1', callId, capability: 'shell', reason: 'r', args: { command: 'ls' }, alwaysCovers: null, warning: null, state: 'pending', error: null });
const end = (turnId: string, usage = { input_tokens: 0, output_tokens: 0 }, costUsd: number | null = null, status: 'completed' | 'stopped' = 'completed'): ThreadItem => ({ kind: 'turn-end', key: `e:${turnId}`, turnId, status, usage, costUsd, provider: 'local', model: 'm', error: null, stopReason: null });
const thread = (items: ThreadItem[], turns: Thread['turns'], hold: Thread['hold'] = 'running'): Thread => ({ ...emptyThread('c1'), items, turns, hold });

describe('displayItems', () => {
  it('folds a call’s approval into its tool card, and says a message sent meanwhile is queued behind it', () => {
    const shown = displayItems(thread([user('T1'), tool('T1', 'c1'), approval('T1', 'c1'), user('T2', 'and then?')], { T1: 'parked', T2: 'queued' }));
    expect(shown.map((item) => item.kind)).toEqual(['user', 'tool', 'user']);
    const card = shown[1] as Extract<(typeof shown)[number], { kind: 'tool' }>;
    expect(card.approval?.approvalId).toBe('A1');
    expect(shown[2]).toMatchObject({ kind: 'user', queuedBehind: 'approval' });
    expect(shown[0]).toMatchObject({ kind: 'user', queuedBehind: null });
  });

  it('keeps an approval whose call is not on screen as its own card', () => {
    const shown = displayItems(thread([user('T1'), approval('T1', null)], { T1: 'parked' }));
    expect(shown.map((item) => item.kind)).toEqual(['user', 'approval']);
  });

  it('shows "thinking" from send to the first output, and the pause banner right after what the turn produced', () => {
    expect(displayItems(thread([user('T1')], { T1: 'running' })).map((item) => item.kind)).toEqual(['user', 'thinking']);
    const answer: ThreadItem = { kind: 'assistant', key: 'a:1', turnId: 'T1', text: 'half', streaming: false };
    expect(displayItems(thread([user('T1'), answer], { T1: 'running' })).map((item) => item.kind)).toEqual(['user', 'assistant']);
    const paused = displayItems(thread([user('T1'), answer, user('T2')], { T1: 'running', T2: 'queued' }, 'paused'));
    expect(paused.map((item) => item.kind)).toEqual(['user', 'assistant', 'hold', 'user']);
    // Finished: the hold lapses with the turn (apply-event.ts), and the banner goes with it.
    expect(displayItems(thread([user('T1'), answer, end('T1')], { T1: 'completed' }, 'running')).some((item) => item.kind === 'hold')).toBe(false);
  });

  it('offers Continue only on a stopped last turn, and the conversation total only on the last footer', () => {
    const shown = displayItems(thread([user('T1'), end('T1', { input_tokens: 100, output_tokens: 10 }, 0.002), user('T2'), end('T2', { input_tokens: 50, output_tokens: 5 }, null, 'stopped')], { T1: 'completed', T2: 'stopped' }));
    const ends = shown.filter((item) => item.kind === 'turn-end');
    expect(ends.map((item) => [item.totals, item.continuable])).toEqual([[null, false], [{ inputTokens: 150, outputTokens: 15, costUsd: 0.002, turns: 2 }, true]]);
  });
});

describe('usageWords', () => {
  it('says tokens and cost only when known', () => {
    expect(usageWords({ input_tokens: 0, output_tokens: 0 }, null)).toEqual([]);
    expect(usageWords({ input_tokens: 0, output_tokens: 0 }, 0)).toEqual([]);
    expect(usageWords({ input_tokens: 1200, output_tokens: 34 }, 0.0042)).toEqual(['1,200 in · 34 out tokens', '$0.0042']);
  });
});
