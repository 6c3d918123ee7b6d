/**
 * A Node built-in module loaded on first use instead of with the daemon: each built-in a module imports at
 * its top is loaded before the daemon answers, and tools and rails that start-up never runs need theirs
 * only later (docs/decisions/0027, fourth pass). The getter loads once and keeps the module.
 */
import { createRequire } from 'node:module';

const load = createRequire(import.meta.url);

export function lazyBuiltin<T>(name: `node:${string}`): () => T {
  let module: T | undefined;
  return () => (module ??= load(name) as T);
}
