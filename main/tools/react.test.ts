import { describe, expect, it } from 'vitest';
import type { ExecutionContext } from '../core/capabilities/capability.js';
import { isSingleEmoji, react } from './react.js';
import type { ReactionSink } from './tool-services.js';
import { failureOf, run } from './tool-test-fixture.js';

function context(reactions?: ReactionSink, conversationId: string | null = 'conv-1'): ExecutionContext {
  return { trust: 'operator', origin: 'chat', conversationId: conversationId ?? undefined, signal: new AbortController().signal, services: reactions ? { reactions } : {} };
}

function recordingSink(extra: Partial<ReactionSink> = {}): ReactionSink & { calls: Array<{ conversationId: string; emoji: string }> } {
  const calls: Array<{ conversationId: string; emoji: string }> = [];
  return { ...extra, calls, react: async (input) => void calls.push(input) };
}

describe('react executor', () => {
  it('delivers one emoji and tells the loop to end the turn without text', async () => {
    const sink = recordingSink();
    const result = await run(react.executor, { emoji: '👍' }, context(sink));
    expect(result.data).toEqual({ reaction: '👍', ends_turn: true });
    expect(sink.calls).toEqual([{ conversationId: 'conv-1', emoji: '👍' }]);
  });

  it('accepts composed emoji as one: skin tones, ZWJ families, flags, keycaps', () => {
    for (const e of ['👍🏽', '👨‍👩‍👧', '🇫🇷', '1️⃣', '❤️', '🎉']) expect(isSingleEmoji(e), e).toBe(true);
    for (const e of ['ok', '👍👍', '👍 ', 'a', ':+1:', '']) expect(isSingleEmoji(e), e).toBe(false);
  });

  it('fails unsupported_emoji for text or several emoji, and outside a restricted set', async () => {
    expect((await failureOf(run(react.executor, { emoji: 'thanks' }, context(recordingSink())))).code).toBe('unsupported_emoji');
    expect((await failureOf(run(react.executor, { emoji: '👍👎' }, context(recordingSink())))).code).toBe('unsupported_emoji');
    const restricted = recordingSink({ allowed: ['👍', '❤️'] });
    expect((await failureOf(run(react.executor, { emoji: '🎉' }, context(restricted)))).code).toBe('unsupported_emoji');
    expect(restricted.calls).toEqual([]);
  });

  it('fails reply_fn_required without a chat, and reaction_unsupported on channels without reactions', async () => {
    expect((await failureOf(run(react.executor, { emoji: '👍' }, context()))).code).toBe('reply_fn_required');
    expect((await failureOf(run(react.executor, { emoji: '👍' }, context(recordingSink(), null)))).code).toBe('reply_fn_required');
    expect((await failureOf(run(react.executor, { emoji: '👍' }, context(recordingSink({ supported: false }))))).code).toBe('reaction_unsupported');
  });
});
