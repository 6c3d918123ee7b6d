import type { z } from 'zod';
import { FermixError, toWireError, type WireError } from '../core/errors.js';
import { isMethodName, methodSpec, type MethodName, type OutputOf, type ParsedInputOf } from './contract.js';
import { describeIssues, invalidInputMessage } from './validation-messages.js';

export type Transport = 'http' | 'socket' | 'ipc' | 'in-process';

export interface CallContext {
  transport: Transport;
  /** Every transport we serve is local and authenticated (token, 0600 socket, preload): operator. */
  trust: 'operator';
  signal?: AbortSignal;
}

export type Handlers = { [M in MethodName]: (input: ParsedInputOf<M>, context: CallContext) => Promise<OutputOf<M>> | OutputOf<M> };

export type DispatchResult = { ok: true; result: unknown } | { ok: false; error: WireError };

export interface Dispatcher {
  dispatch(method: string, input: unknown, context: CallContext): Promise<DispatchResult>;
}

/** Input nesting cap, as Fermix's MCP request cap (depth 64): checked before zod, logs or audit walk it recursively. */
export const MAX_INPUT_DEPTH = 64;

export interface DispatcherOptions {
  /** Called with unexpected (non-Fermix) errors, so they reach the log with their stack. */
  onInternalError?: (method: string, error: unknown) => void;
}

/** One place where every request is validated, handled and turned into the wire shape. */
export function createDispatcher(handlers: Partial<Handlers>, options: DispatcherOptions = {}): Dispatcher {
  return {
    async dispatch(method, input, context) {
      try {
        if (!isMethodName(method)) {
          // Echo at most 100 characters: the name is client input and ends up in logs and error screens.
          const shown = method.length > 100 ? `${method.slice(0, 100)}…` : method;
          throw new FermixError({
            code: 'method_not_found',
            message: `The daemon has no API method named "${shown}".`,
            hint: 'Update the client and the daemon to the same version (`fermix restart` after an upgrade).',
            data: { method: shown },
          });
        }
        const handler = handlers[method] as ((input: unknown, context: CallContext) => unknown) | undefined;
        if (!handler) {
          throw new FermixError({
            code: 'not_implemented',
            message: `The API method "${method}" is declared but this daemon does not serve it yet.`,
            hint: 'Update Fermix; this method arrives with the feature that needs it.',
          });
        }
        if (exceedsDepth(input, MAX_INPUT_DEPTH)) {
          throw new FermixError({
            code: 'invalid_input',
            message: `Invalid input for ${method}: it is nested deeper than ${MAX_INPUT_DEPTH} levels.`,
            hint: `Send arguments nested at most ${MAX_INPUT_DEPTH} levels deep.`,
            data: { max_depth: MAX_INPUT_DEPTH },
          });
        }
        const spec = await methodSpec(method);
        const parsed = parseOrThrow(spec.input, input ?? undefined, method);
        const result = await handler(parsed, context);
        const checked = spec.output.safeParse(result);
        if (!checked.success) {
          throw new Error(`Output of ${method} does not match its schema: ${checked.error.message}`);
        }
        return { ok: true, result: checked.data };
      } catch (error) {
        if (!(error instanceof FermixError)) options.onInternalError?.(method, error);
        return { ok: false, error: toWireError(error) };
      }
    },
  };
}

function parseOrThrow(schema: z.ZodType, input: unknown, method: string): unknown {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  // People read `message` in the window and the CLI; programs keep `code`, the field path and zod's wording.
  const issues = describeIssues(parsed.error.issues);
  const first = issues[0];
  throw new FermixError({
    code: 'invalid_input',
    message: invalidInputMessage(issues),
    // Shown right after the sentence (under the field in the window): say what happened, do not repeat the field.
    hint: first.field === '(input)' ? `Check what was sent to ${method} and send it again.` : 'Nothing was saved; correct it and try again.',
    data: { method, field: first.field, issues: issues.map(({ field, problem }) => ({ field, problem })) },
  });
}

/**
 * True when arrays/objects nest deeper than `max` (a bare object is depth 1). Iterative on purpose:
 * the input may be 10,000 levels deep, which is exactly what overflows a recursive walk.
 */
export function exceedsDepth(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop() as [unknown, number];
    if (current === null || typeof current !== 'object') continue;
    if (depth > max) return true;
    for (const child of Object.values(current as Record<string, unknown>)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}
