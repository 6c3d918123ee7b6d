import type { NetPolicy } from './url-policy.js';

/**
 * The only way to open loopback (127.0.0.0/8, ::1) through Net.Guard: a policy object minted here.
 *
 * Why an object identity and not a flag: tests need real servers on 127.0.0.1, but a config key or an
 * environment variable would let a user (or a prompt-injected model editing config) switch SSRF protection
 * off. A structurally identical `{ allowLoopbackForTests: true }` parsed from JSON or TOML is NOT honoured:
 * only objects in this module's WeakSet are. test-policy-boundary.test.ts fails if anything other than a
 * *.test.ts file calls createTestPolicy.
 */
const minted = new WeakSet<NetPolicy>();

export function createTestPolicy(): NetPolicy {
  const policy: NetPolicy = Object.freeze({ allowLoopbackForTests: true });
  minted.add(policy);
  return policy;
}

/** Used by the guard: true only for objects returned by createTestPolicy. */
export function isMintedTestPolicy(policy: NetPolicy): boolean {
  return minted.has(policy);
}
