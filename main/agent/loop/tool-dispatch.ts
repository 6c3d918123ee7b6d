/**
 * One tool call from the model → the invoke boundary → one tool result in the history. The loop never
 * runs an executor itself: `invoker.execute` does trust, validation, gate (and approval parking),
 * timeout, truncation and audit. `tool_call` is unwrapped HERE first, for loop detection and for the
 * events people see; the invoker unwraps it again for policy and audit, so both name the real tool.
 */
import { formatErrorForModel, isFermixError, type FermixError } from '../../core/errors.js';
import { redactSecrets, unwrapToolCall, type InvokeContext, type Invoker, type ToolResult } from '../../core/capabilities/index.js';
import type { StoredMessage, TurnStore } from '../../store/turns.js';
import { loopWarning, type createLoopDetector } from './loop-detector.js';
import type { ModelToolCall } from './model-call.js';
import type { TurnEmitter } from './turn-events.js';

export type DispatchOutcome =
  /** `endsTurn`: the tool said the turn is over (a delivered `react`), so no further model call is due. */
  | { kind: 'done'; endsTurn?: boolean }
  | { kind: 'loop'; name: string; count: number }
  /** Stopped by the person (`/stop`) or by a daemon shutdown: the caller decides which. */
  | { kind: 'aborted' };

export interface DispatchContext {
  turnId: string;
  conversationId: string;
  store: TurnStore;
  invoker: Invoker;
  invokeContext: InvokeContext;
  detector: ReturnType<typeof createLoopDetector>;
  emitter: TurnEmitter;
  signal: AbortSignal;
  /**
   * Which call is running, so an approval request can be tied to it (parking). Cleared with null, it may
   * return the milliseconds the call spent waiting for a person's approval: the tool's duration counts
   * execution only (the audit's run time), never the wait.
   */
  setCurrentCall(callId: string | null): number | void;
}

const PREVIEW = 2_000;

function resultMessage(call: ModelToolCall, text: string, isError: boolean, images?: ToolResult['images']): StoredMessage {
  const message: StoredMessage = { role: 'tool', callId: call.id, name: call.name, text, isError };
  if (images && images.length > 0) message.images = images.map((image) => ({ mimeType: image.mimeType, base64: image.base64 }));
  return message;
}

/** Records a result for a call that will not run (loop ended, turn stopped), keeping the history valid. */
export function skipCall(ctx: DispatchContext, call: ModelToolCall, code: 'loop_detected' | 'cancelled', why: string): void {
  const text = `Error [${code}]: ${why}`;
  ctx.store.step(() => {
    ctx.store.appendMessage(ctx.conversationId, ctx.turnId, resultMessage(call, text, true));
    ctx.store.toolCallFinished(ctx.turnId, call.id, { status: 'cancelled', error_code: code, text, duration_ms: 0 });
  });
}

export async function dispatchCall(ctx: DispatchContext, call: ModelToolCall): Promise<DispatchOutcome> {
  const real = unwrapToolCall(call.name, call.args);
  const verdict = ctx.detector.check(real.name, real.args);
  if (verdict.action === 'stop') return { kind: 'loop', name: real.name, count: verdict.count };

  ctx.store.toolCallStarted(ctx.turnId, { call_id: call.id, requested_name: call.name, name: real.name, args: real.args });
  ctx.emitter.emit('chat.tool_call', { turn_id: ctx.turnId, call_id: call.id, name: real.name, requested_name: call.name, args: redactSecrets(real.args) });
  const started = Date.now();
  ctx.setCurrentCall(call.id);
  let text: string;
  let isError = false;
  let errorCode: string | null = null;
  let images: ToolResult['images'];
  let endsTurn = false;
  let waitedMs = 0;
  try {
    const result = await ctx.invoker.execute(call.name, call.args, ctx.invokeContext);
    text = result.text;
    images = result.images;
    endsTurn = (result.data as { ends_turn?: unknown } | undefined)?.ends_turn === true;
  } catch (error) {
    if (ctx.signal.aborted) {
      ctx.setCurrentCall(null);
      return { kind: 'aborted' };
    }
    const fermix: FermixError | null = isFermixError(error) ? error : null;
    errorCode = fermix?.code ?? 'tool_failed';
    text = fermix ? formatErrorForModel(fermix.toWire()) : `Error [tool_failed]: ${real.name} failed.`;
    isError = true;
  } finally {
    waitedMs = ctx.setCurrentCall(null) ?? 0;
  }
  if (verdict.action === 'warn') {
    text += loopWarning(real.name, verdict.count);
    ctx.emitter.emit('chat.warning', { turn_id: ctx.turnId, code: 'loop_warning', message: `${real.name} was called ${verdict.count} times with the same arguments.` });
  }
  const duration = Math.max(0, Date.now() - started - waitedMs);
  // The result message and the call's row are one step: one commit.
  ctx.store.step(() => {
    ctx.store.appendMessage(ctx.conversationId, ctx.turnId, resultMessage(call, text, isError, images));
    ctx.store.toolCallFinished(ctx.turnId, call.id, { status: isError ? 'error' : 'ok', error_code: errorCode, text, duration_ms: duration });
  });
  ctx.emitter.emit('chat.tool_result', {
    turn_id: ctx.turnId,
    call_id: call.id,
    name: real.name,
    ok: !isError,
    error_code: errorCode,
    preview: text.slice(0, PREVIEW),
    duration_ms: duration,
    images: (images ?? []).map((image) => ({ mime_type: image.mimeType, base64: image.base64 })),
  });
  return { kind: 'done', endsTurn };
}
