import { describe, expect, it } from 'vitest';
import { createDispatcher, exceedsDepth, MAX_INPUT_DEPTH } from './dispatcher.js';
import { FermixError } from '../core/errors.js';
import { createApiClient } from './client.js';

const context = { transport: 'in-process' as const, trust: 'operator' as const };

describe('dispatcher', () => {
  it('validates input, names the field, and never leaks internal errors', async () => {
    const internal: unknown[] = [];
    const dispatcher = createDispatcher({
      'conversations.get': () => {
        throw new Error('SQLITE_CORRUPT at /secret/path.ts:12');
      },
      'conversations.rename': () => {
        throw new FermixError({ code: 'conversation_not_found', message: 'No conversation with id x.', hint: 'List them.' });
      },
    }, { onInternalError: (_method, error) => internal.push(error) });
    const invalid = await dispatcher.dispatch('conversations.get', { id: 7 }, context);
    expect(invalid).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(JSON.stringify(invalid)).toContain('id');
    const crashed = await dispatcher.dispatch('conversations.get', { id: 'x' }, context);
    expect(crashed).toEqual({ ok: false, error: { code: 'internal_error', message: expect.any(String), hint: expect.stringContaining('fermix logs') } });
    expect(JSON.stringify(crashed)).not.toContain('SQLITE_CORRUPT');
    expect(internal).toHaveLength(1);
    const known = await dispatcher.dispatch('conversations.rename', { id: 'x', title: 't' }, context);
    expect(known).toEqual({ ok: false, error: { code: 'conversation_not_found', message: 'No conversation with id x.', hint: 'List them.' } });
  });

  it('refuses unknown and unserved methods with their own codes', async () => {
    const dispatcher = createDispatcher({});
    expect(await dispatcher.dispatch('nope.nothing', {}, context)).toMatchObject({ error: { code: 'method_not_found' } });
    expect(await dispatcher.dispatch('system.status', {}, context)).toMatchObject({ error: { code: 'not_implemented' } });
  });

  it('checks handler output against the contract', async () => {
    const dispatcher = createDispatcher({ 'system.health': () => ({ live: 'yes' }) as never });
    expect(await dispatcher.dispatch('system.health', {}, context)).toMatchObject({ ok: false, error: { code: 'internal_error' } });
  });

  it('gives clients typed results and FermixErrors with hints', async () => {
    const dispatcher = createDispatcher({ 'system.health': () => ({ live: true, ready: false, not_ready: [{ component: 'store', reason: 'starting' }] }) });
    const client = createApiClient({ invoke: (method, input) => dispatcher.dispatch(method, input, context) });
    const health = await client.call('system.health');
    expect(health.not_ready[0].component).toBe('store');
    await expect(client.call('conversations.get', { id: 'x' })).rejects.toMatchObject({ code: 'not_implemented', hint: expect.any(String) });
  });

  it('refuses input nested deeper than 64 levels with invalid_input before the handler or zod walk it', async () => {
    let called = 0;
    const dispatcher = createDispatcher({ 'conversations.create': () => { called += 1; throw new Error('must not run'); } });
    let deep: unknown = 'leaf';
    for (let i = 0; i < 10_000; i += 1) deep = [deep];
    const refused = await dispatcher.dispatch('conversations.create', { title: deep }, context);
    expect(refused).toMatchObject({ ok: false, error: { code: 'invalid_input', data: { max_depth: MAX_INPUT_DEPTH } } });
    expect((refused as { error: { hint: string } }).error.hint).toContain('64');
    expect(called).toBe(0);
  });

  it('counts depth exactly: 64 levels pass, 65 do not', () => {
    const nest = (levels: number) => {
      let value: unknown = 1;
      for (let i = 0; i < levels; i += 1) value = i % 2 ? [value] : { k: value };
      return value;
    };
    expect(exceedsDepth(nest(64), 64)).toBe(false);
    expect(exceedsDepth(nest(65), 64)).toBe(true);
    expect(exceedsDepth('text', 0)).toBe(false);
    expect(exceedsDepth([[], [[]]], 3)).toBe(false);
    expect(exceedsDepth([[], [[[]]]], 3)).toBe(true);
  });

  it('echoes at most 100 characters of an unknown method name', async () => {
    const result = await createDispatcher({}).dispatch('x'.repeat(100_000), {}, context);
    expect(result).toMatchObject({ ok: false, error: { code: 'method_not_found' } });
    expect(JSON.stringify(result).length).toBeLessThan(600);
  });
});
