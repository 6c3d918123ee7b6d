import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { App } from '../../app/app.js';
import { createAppModel } from '../../app/app-model.js';
import { ModelProvider } from '../../app/model-context.js';
import { inProcessDaemon } from '../../testing/in-process-daemon.js';
import { filterInput } from './store.js';

afterEach(cleanup);

const record = (id: number, decision: 'allow' | 'deny', command: string) => ({
  id, time: `2026-01-01T00:00:0${id}.000Z`, conversation_id: 'c1', trust: 'operator', origin: 'chat', capability: 'shell', kind: 'builtin', policy_class: 'exec',
  decision, rule: null, approval: decision === 'allow' ? 'once' : 'deny', args_mode: 'full', args: { command }, duration_ms: 12, result_bytes: decision === 'allow' ? 7 : 0, truncated: false,
  error_code: decision === 'deny' ? 'permission_denied' : null, notes: null,
});

describe('the Audit screen', () => {
  it('lists calls and denials, and asks the daemon again with each filter', async () => {
    const daemon = inProcessDaemon({
      handlers: {
        'audit.query': (input) => ({ records: [record(2, 'deny', 'echo refused'), record(1, 'allow', 'echo ok')].filter((each) => !input.decision || each.decision === input.decision) }),
        'capabilities.list': () => ({ capabilities: [] }),
      },
    });
    const model = createAppModel(daemon.transport);
    await act(async () => {
      render(<ModelProvider model={model}><App /></ModelProvider>);
    });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Audit' })));
    const table = await screen.findByRole('table', { name: 'Audit records, newest first' });
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    expect(within(table).getByText('echo refused').closest('tr')!.textContent).toContain('your answer: deny');
    await act(async () => fireEvent.change(screen.getByLabelText('Decision'), { target: { value: 'deny' } }));
    expect(daemon.calls.filter((call) => call.method === 'audit.query').at(-1)?.input).toMatchObject({ decision: 'deny' });
    expect(within(screen.getByRole('table', { name: 'Audit records, newest first' })).getAllByRole('row')).toHaveLength(2);
  });

  it('turns the "since" choice into a timestamp and leaves out empty filters', () => {
    const now = Date.UTC(2026, 0, 2);
    expect(filterInput({ capability: '', decision: 'any', since: 'all' }, now)).toEqual({});
    expect(filterInput({ capability: 'shell', decision: 'allow', since: 'day' }, now)).toEqual({ capability: 'shell', decision: 'allow', since: '2026-01-01T00:00:00.000Z' });
  });
});
