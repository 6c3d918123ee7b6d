/**
 * Follows one turn from the CLI: `events.follow` over the control socket pushes the conversation's
 * events as they happen, and the answer is printed as it streams (tool activity goes to stderr). A
 * parked approval is asked at the terminal when a person is there, and answered through the approvals
 * API. A daemon without events.follow is polled with `events.replay` instead; if the stream is lost or
 * falls behind the replay buffer, the CLI waits for the turn's final summary.
 */
import { callDaemon, followDaemon } from '../control-client.js';
import type { CliIo } from '../output.js';
import type { z } from 'zod';
import { isFermixError } from '../../core/errors.js';
import type { turnSummarySchema } from '../../api/methods/chat.js';

export interface TerminalIo {
  /** Raw stdout, no newline added (streamed text). */
  write(text: string): void;
  isTTY: boolean;
  question(prompt: string): Promise<string>;
  onInterrupt(handler: () => void): () => void;
}

/** A finished turn as the daemon reports it (the chat API's turn summary). */
export type TurnResult = z.infer<typeof turnSummarySchema>;

interface Envelope {
  seq: number;
  type: string;
  payload: Record<string, any>;
}

/** Only for a daemon that predates events.follow. */
const POLL_MS = 100;

interface StreamOptions {
  socket: string;
  term: TerminalIo;
  io: CliIo;
  conversationId: string;
  turnId: string;
  afterSeq: number;
  timeoutMs: number;
  interactive: boolean;
}

/** Prints one event of the followed turn; returns the summary once the turn finished. */
function createPrinter(options: StreamOptions) {
  const { term, io, turnId } = options;
  let printed = '';
  return {
    printed: () => printed,
    async handle(event: Envelope): Promise<TurnResult | undefined> {
      if (event.payload?.turn_id !== turnId) return undefined;
      const p = event.payload;
      switch (event.type) {
        case 'chat.delta':
          printed += String(p.text);
          term.write(String(p.text));
          break;
        case 'chat.tool_call':
          io.err(`  → ${p.name}${p.requested_name !== p.name ? ` (via ${p.requested_name})` : ''}`);
          break;
        case 'chat.tool_result':
          io.err(`  ← ${p.name}: ${p.ok ? 'ok' : p.error_code} (${Math.round(p.duration_ms)} ms)`);
          break;
        case 'chat.warning':
          io.err(`  ! ${p.message}`);
          break;
        case 'chat.parked':
          await answerApproval(options, p);
          break;
        case 'chat.turn_finished':
          return p as unknown as TurnResult;
        default:
          break;
      }
      return undefined;
    },
  };
}

export async function streamTurn(options: StreamOptions): Promise<TurnResult> {
  const { socket, io, turnId } = options;
  const deadline = Date.now() + options.timeoutMs;
  let stopping = false;
  const detach = options.term.onInterrupt(() => {
    if (stopping) process.exit(130);
    stopping = true;
    io.err('\n(stopping — press Ctrl-C again to leave without waiting)');
    void callDaemon(socket, 'chat.stop', { conversation_id: options.conversationId }).catch(() => {});
  });
  const printer = createPrinter(options);
  // The rest of the answer once streaming gave up: what was printed already is not printed twice.
  const waitForSummary = async (why: string): Promise<TurnResult> => {
    io.err(`(${why}; waiting for the whole answer)`);
    const result = (await callDaemon(socket, 'chat.turn', { turn_id: turnId, wait: true }, Math.max(1000, deadline - Date.now()))) as TurnResult;
    const printed = printer.printed();
    options.term.write(result.text.startsWith(printed) ? result.text.slice(printed.length) : `${printed ? '\n' : ''}${result.text}`);
    return result;
  };
  try {
    let finished: TurnResult | undefined;
    try {
      const end = await followDaemon(socket, { stream: options.conversationId, after_seq: options.afterSeq, until_turn: turnId }, async (event) => {
        finished = (await printer.handle(event as Envelope)) ?? finished;
      }, options.timeoutMs);
      if (finished) return finished;
      return await waitForSummary(end.ended === 'fell_behind' ? 'the event stream fell behind' : 'the event stream ended early');
    } catch (error) {
      if (finished) return finished;
      if (isFermixError(error) && error.code === 'method_not_found') return await pollTurn(options, printer, deadline, waitForSummary);
      if (isFermixError(error) && error.code === 'daemon_timeout') {
        io.err(`(no answer within ${options.timeoutMs} ms; the turn goes on in the daemon)`);
        return (await callDaemon(socket, 'chat.turn', { turn_id: turnId })) as TurnResult;
      }
      if (isFermixError(error) && (error.code === 'daemon_stream_lost' || error.code === 'frame_too_large')) return await waitForSummary(error.message.replace(/\.$/, ''));
      throw error;
    }
  } finally {
    detach();
  }
}

/** The pre-follow way: `events.replay` every POLL_MS. */
async function pollTurn(options: StreamOptions, printer: ReturnType<typeof createPrinter>, deadline: number, waitForSummary: (why: string) => Promise<TurnResult>): Promise<TurnResult> {
  let after = options.afterSeq;
  while (Date.now() < deadline) {
    const replay = (await callDaemon(options.socket, 'events.replay', { stream: options.conversationId, after_seq: after })) as { events: Envelope[]; complete: boolean };
    if (!replay.complete) return waitForSummary('the event stream fell behind');
    for (const event of replay.events) {
      after = event.seq;
      const finished = await printer.handle(event);
      if (finished) return finished;
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  options.io.err(`(no answer within ${options.timeoutMs} ms; the turn goes on in the daemon)`);
  return (await callDaemon(options.socket, 'chat.turn', { turn_id: options.turnId })) as TurnResult;
}

async function answerApproval(options: { socket: string; term: TerminalIo; io: CliIo; interactive: boolean }, parked: Record<string, any>): Promise<void> {
  const { io } = options;
  io.err(`\n  ? ${parked.capability} needs your approval: ${parked.reason}`);
  io.err(`    arguments: ${JSON.stringify(parked.card?.args ?? {})}`);
  if (typeof parked.card?.warning === 'string') io.err(`    ${parked.card.warning}`);
  if (!options.interactive) {
    io.err('    Answer it in the Fermix window (approval card); the turn waits.');
    return;
  }
  const covers = parked.card?.always_covers;
  if (covers) io.err(`    "always" will allow: ${covers.permission}${covers.pattern ? ` ${covers.pattern}` : ''}${covers.unjailed ? ' (runs unjailed)' : ''}`);
  const raw = (await options.term.question('    allow? [o]nce / [a]lways / [d]eny: ')).trim().toLowerCase();
  const answer = raw.startsWith('a') ? 'always' : raw.startsWith('o') || raw.startsWith('y') ? 'once' : 'deny';
  try {
    await callDaemon(options.socket, 'approvals.answer', { id: parked.approval_id, answer });
  } catch (error) {
    if (isFermixError(error) && (error.code === 'method_not_found' || error.code === 'not_implemented')) {
      io.err('    This daemon cannot take answers from the CLI yet: answer it in the Fermix window.');
      return;
    }
    throw error;
  }
}
