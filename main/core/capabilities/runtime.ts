/**
 * Timers, AbortController and abort listeners exist in Node, Electron and browsers, but the common
 * tsconfig (lib ES2023, no types) does not declare them. This typed view of globalThis is the one place
 * that reaches for them, so common code stays free of node:/DOM imports.
 */
interface AbortHost {
  setTimeout<T>(callback: (subject: T) => void, ms: number, subject?: T): unknown;
  clearTimeout(handle: unknown): void;
  AbortController: new () => AbortController;
}

interface ListenableSignal {
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

const host = globalThis as unknown as AbortHost;

export function newAbortController(): AbortController {
  return new host.AbortController();
}

/** What a call's cancellation offers a listener: the part of AbortSignal that listening uses. */
export interface CancellationView {
  readonly aborted: boolean;
  readonly reason: unknown;
  throwIfAborted(): void;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/**
 * One call's cancellation. An AbortController costs 2–3 µs to create in Node 20 (its signal is an
 * EventTarget given another prototype), on every capability call; this costs nothing until someone
 * listens, and a real AbortSignal is made from it only when an executor asks for one (`signal`).
 * Listeners run once, in the order added, like an AbortSignal's; one added after the abort never runs.
 */
export class Cancellation implements CancellationView {
  aborted = false;
  reason: unknown = undefined;
  private listeners: (() => void)[] | undefined;
  private controller: AbortController | undefined;

  throwIfAborted(): void {
    if (this.aborted) throw this.reason;
  }

  addEventListener(type: 'abort', listener: () => void): void {
    if (type !== 'abort' || this.aborted) return;
    (this.listeners ??= []).push(listener);
  }

  removeEventListener(type: 'abort', listener: () => void): void {
    const index = type === 'abort' && this.listeners ? this.listeners.indexOf(listener) : -1;
    if (index >= 0) this.listeners!.splice(index, 1);
  }

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const listeners = this.listeners;
    this.listeners = undefined;
    for (const listener of listeners ?? []) {
      try {
        listener.call(this);
      } catch (error) {
        // As an EventTarget does: one throwing listener neither stops the others nor disappears.
        void Promise.reject(error);
      }
    }
  }

  /** A real AbortSignal that aborts with this (with the same reason), made on first use. */
  get signal(): AbortSignal {
    if (this.controller === undefined) {
      const controller = (this.controller = newAbortController());
      if (this.aborted) controller.abort(this.reason);
      else this.addEventListener('abort', () => controller.abort(this.reason));
    }
    return this.controller.signal;
  }
}

/** A pending timer, for `stopTimer`. */
export type TimerHandle = { readonly timer: unique symbol };

/**
 * Calls `callback(subject)` once after `ms`. A module-level callback and its subject instead of a
 * closure: the invoke boundary starts one for every call.
 */
export function startTimer<T>(ms: number, callback: (subject: T) => void, subject: T): TimerHandle {
  return host.setTimeout(callback, ms, subject) as TimerHandle;
}

export function stopTimer(handle: TimerHandle): void {
  host.clearTimeout(handle);
}

/** Runs `callback` when `signal` aborts (immediately if it already has); returns the unsubscriber. */
export function onAbort(signal: AbortSignal | undefined, callback: () => void): () => void {
  if (signal === undefined) return () => {};
  if (signal.aborted) {
    callback();
    return () => {};
  }
  const listenable = signal as unknown as ListenableSignal;
  listenable.addEventListener('abort', callback, { once: true });
  return () => listenable.removeEventListener('abort', callback);
}

/** UTF-8 byte length without TextEncoder (not declared in the common environment). */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i += 1;
    } else bytes += 3;
  }
  return bytes;
}
