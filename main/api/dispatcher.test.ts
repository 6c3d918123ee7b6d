import { describe, expect, it } from 'vitest';
import { createDispatcher } from './dispatcher.js';
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
});
