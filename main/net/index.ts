// Net.Guard's public surface. test-policy.ts is deliberately NOT re-exported: only tests import it directly.
export { guardedFetch, NET_DEFAULTS, type GuardedFetchOptions, type GuardedResponse } from './guarded-fetch.js';
export { webFetch, type WebFetchDeps, type WebFetchInput, type WebFetchResult } from './web-fetch-core.js';
export { checkUrl, DEFAULT_NET_POLICY, type NetPolicy } from './url-policy.js';
export { classifyAddress, type AddressVerdict } from './address-policy.js';
export { resolveAndPin, systemResolver, type HostResolver, type PinnedTarget, type ResolvedAddress } from './resolve-and-pin.js';
export { NET_ERROR_CODES, type NetErrorCode } from './net-errors.js';
