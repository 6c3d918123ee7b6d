// A daemon in the test process for the window's jsdom tests: the real dispatcher (validation, wire errors)
// with handlers the test writes, and an event stream the test drives. What only a browser and a real daemon
// can show is in e2e/.
import { createDispatcher, type Handlers } from '../../../main/api/dispatcher.js';
import type { EventEnvelope } from '../../../main/api/events.js';
import { FermixError } from '../../../main/core/errors.js';
import type { AppTransport } from '../api/transport.js';

type Row = { id: string; title: string; created_at: string; updated_at: string; pinned?: boolean; title_source?: 'auto' | 'model' | 'user' };
/** A row as the API returns it (tests may push rows with only the basic fields). */
const full = (row: Row) => ({ pinned: false, title_source: 'user' as const, ...row });

export interface InProcessDaemon {
  transport: AppTransport;
  rows: Row[];
  /** Every call the window made, in order. */
  calls: { method: string; input: unknown }[];
  emit(stream: string, type: string, payload: unknown): void;
}

export function inProcessDaemon(options: { authorized?: boolean; handlers?: Partial<Handlers> } = {}): InProcessDaemon {
  const rows: Row[] = [];
  const calls: { method: string; input: unknown }[] = [];
  const listeners = new Set<(event: EventEnvelope) => void>();
  const seqs = new Map<string, number>();
  let clock = 0;
  const emit = (stream: string, type: string, payload: unknown) => {
    const seq = (seqs.get(stream) ?? 0) + 1;
    seqs.set(stream, seq);
    clock += 1;
    const event = { stream, seq, type, time: new Date(Date.UTC(2026, 0, 1, 0, 0, clock)).toISOString(), payload };
    listeners.forEach((listener) => listener(event));
  };
  const guard = () => {
    if (options.authorized === false) throw new FermixError({ code: 'unauthorized', message: 'This request carries no valid session or token.', hint: 'Run `fermix status` to see the URL.' });
  };
  const handlers: Partial<Handlers> = {
    'system.status': () => {
      guard();
      return { pid: 42, version: '9.8.7', started_at: '2026-01-01T00:00:00.000Z', uptime_s: 3, home: '/home/test/.fermix', http_url: null, socket: '/home/test/.fermix/run/daemon.sock', in_flight: 0, cli: 'fermix' };
    },
    'conversations.list': () => ({ conversations: [...rows].reverse().map(full) }),
    'conversations.create': (input) => {
      const time = new Date(Date.UTC(2026, 0, 1, 0, 0, rows.length)).toISOString();
      const row = full({ id: `c${rows.length + 1}`, title: input.title ?? 'New conversation', created_at: time, updated_at: time, title_source: input.auto_title ? 'auto' : 'user' });
      rows.push(row);
      emit(row.id, 'conversation.created', { id: row.id, title: row.title });
      return row;
    },
    'conversations.get': (input) => ({ conversation: full(rows.find((row) => row.id === input.id)!), messages: [], has_more: false }),
    'chat.turns': () => ({ turns: [] }),
    'approvals.list': () => ({ pending: [] }),
    'directory_access.pending': () => ({ pending: [] }),
    'events.replay': (input) => ({ events: [], latest_seq: seqs.get(input.stream) ?? 0, complete: true }),
    'providers.list': () => ({ providers: [{ name: 'local', type: 'openai-compatible', base_url: 'http://127.0.0.1:11434/v1', model: 'qwen3', primary: true, key: { source: 'none', label: null, present: null, problem: null } }], ollama: null }),
    'computer.status': () => ({ enabled: false, paused: false, summary: 'Computer use is not enabled ([fermix_core.computer_use] enabled = false), so the agent cannot drive this desktop.' }),
    ...options.handlers,
  };
  const dispatcher = createDispatcher(handlers);
  const transport: AppTransport = {
    kind: 'ipc',
    invoke: (method, input) => {
      calls.push({ method, input });
      return dispatcher.dispatch(method, input, { transport: 'in-process', trust: 'operator' });
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    onLink(listener) {
      listener('open');
      return () => {};
    },
    onResync: () => () => {},
    close() {},
  };
  return { transport, rows, calls, emit };
}
