/**
 * One stable Sandbox object whose insides can be replaced after a config change (a grant confirmed
 * in chat, `[sandbox]` edited). Services are handed to executors as a plain record built once, so
 * the record must hold something that never changes identity: this delegate. Build every
 * replacement with the same `runner` and `jail`, so commands already running keep their process
 * group under the one runner that the daemon shuts down.
 */
import type { Sandbox } from './sandbox.js';

export interface SwappableSandbox extends Sandbox {
  /** The sandbox calls go to now. */
  readonly current: Sandbox;
  /** Later calls use `next`; calls already running finish on the old one. */
  swap(next: Sandbox): void;
}

export function createSwappableSandbox(initial: Sandbox): SwappableSandbox {
  let current = initial;
  return {
    get current() {
      return current;
    },
    get policy() {
      return current.policy;
    },
    get workspace() {
      return current.workspace;
    },
    runShell: (request) => current.runShell(request),
    shutdown: () => current.shutdown(),
    swap(next) {
      current = next;
    },
  };
}
