/**
 * Follows one turn from the CLI: polls `events.replay` on the conversation stream and prints the
 * answer as it streams (tool activity goes to stderr). A parked approval is asked at the terminal when
 * a person is there, and answered through the approvals API. If the daemon's replay buffer no longer
 * reaches back far enough, it falls back to waiting for the turn's final summary.
 */
import { callDaemon } from '../control-client.js';
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

const POLL_MS = 100;

export async function streamTurn(options: { socket: string; term: TerminalIo; io: CliIo; conversationId: string; turnId: string; afterSeq: number; timeoutMs: number; interactive: boolean }): Promise<TurnResult> {
  const { socket, term, io, turnId } = options;
  let after = options.afterSeq;
  const deadline = Date.now() + options.timeoutMs;
  let stopping = false;
  const detach = term.onInterrupt(() => {
    if (stopping) process.exit(130);
    stopping = true;
    io.err('\n(stopping — press Ctrl-C again to leave without waiting)');
    void callDaemon(socket, 'chat.stop', { conversation_id: options.conversationId }).catch(() => {});
  });
  try {
    while (Date.now() < deadline) {
      const replay = (await callDaemon(socket, 'events.replay', { stream: options.conversationId, after_seq: after })) as { events: Envelope[]; complete: boolean };
      if (!replay.complete) {
        io.err('(the event stream fell behind; waiting for the whole answer)');
        const result = (await callDaemon(socket, 'chat.turn', { turn_id: turnId, wait: true }, Math.max(1000, deadline - Date.now()))) as TurnResult;
        term.write(result.text);
        return result;
      }
      for (const event of replay.events) {
        after = event.seq;
        if (event.payload?.turn_id !== turnId) continue;
        const p = event.payload;
        switch (event.type) {
          case 'chat.delta':
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
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    io.err(`(no answer within ${options.timeoutMs} ms; the turn goes on in the daemon)`);
    return (await callDaemon(socket, 'chat.turn', { turn_id: turnId })) as TurnResult;
  } finally {
    detach();
  }
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
