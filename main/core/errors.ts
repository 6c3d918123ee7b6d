/**
 * The one error type of Fermix. Every failure a person or a model can see carries:
 * - `code`: a stable tag (Fermix's failure tags: `blocked_url`, `sandbox_denied`, `needs_secret`, …),
 * - `message`: one sentence saying what went wrong,
 * - `hint`: the exact command or screen that fixes it (may be empty only when nothing can be done),
 * - `data`: typed details for programs, and `cause` for logs (never sent to clients).
 */
export type ErrorData = Record<string, unknown>;

export interface WireError {
  code: string;
  message: string;
  hint: string;
  data?: ErrorData;
}

export interface FermixErrorInit {
  code: string;
  message: string;
  hint?: string;
  data?: ErrorData;
  cause?: unknown;
}

export class FermixError extends Error {
  readonly code: string;
  readonly hint: string;
  readonly data: ErrorData | undefined;

  constructor(init: FermixErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'FermixError';
    this.code = init.code;
    this.hint = init.hint ?? '';
    this.data = init.data;
  }

  toWire(): WireError {
    const wire: WireError = { code: this.code, message: this.message, hint: this.hint };
    if (this.data !== undefined) wire.data = this.data;
    return wire;
  }
}

export function isFermixError(value: unknown): value is FermixError {
  return value instanceof FermixError;
}

/** Unknown errors become `internal_error` without leaking stack traces or internal messages to clients. */
export function toWireError(error: unknown): WireError {
  if (isFermixError(error)) return error.toWire();
  return {
    code: 'internal_error',
    message: 'Something went wrong inside the Fermix daemon.',
    hint: 'Run `fermix logs -n 50` to see the details, and `fermix doctor` to check the installation.',
  };
}

/** Rebuilds a FermixError on the client side of a transport. */
export function fromWireError(wire: WireError): FermixError {
  return new FermixError({ code: wire.code, message: wire.message, hint: wire.hint, data: wire.data });
}

/** For people: message plus hint on the next line. */
export function formatErrorForPeople(error: WireError): string {
  return error.hint ? `${error.message}\n  → ${error.hint}` : error.message;
}

/** For the model: a tool result text that names the tag, so the model can react to it. */
export function formatErrorForModel(error: WireError): string {
  const hint = error.hint ? ` Fix: ${error.hint}` : '';
  return `Error [${error.code}]: ${error.message}${hint}`;
}
