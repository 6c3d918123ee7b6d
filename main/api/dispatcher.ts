import type { z } from 'zod';
import { FermixError, toWireError, type WireError } from '../core/errors.js';
import { apiContract, isMethodName, type MethodName, type OutputOf, type ParsedInputOf } from './contract.js';

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
          throw new FermixError({
            code: 'method_not_found',
            message: `The daemon has no API method named "${method}".`,
            hint: 'Update the client and the daemon to the same version (`fermix restart` after an upgrade).',
            data: { method },
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
        const spec = apiContract[method];
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
  const issues = parsed.error.issues.map((issue) => ({
    field: issue.path.length ? issue.path.join('.') : '(input)',
    problem: issue.message,
  }));
  const first = issues[0];
  throw new FermixError({
    code: 'invalid_input',
    message: `Invalid input for ${method}: ${first.field}: ${first.problem}.`,
    hint: 'Fix the named field and send the request again.',
    data: { issues },
  });
}
