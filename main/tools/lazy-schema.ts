/**
 * A zod schema built the first time it is asked for, then kept. The built-in tool modules are loaded on
 * every daemon start, and building their ~40 zod schemas at module load cost ~12-15 ms of it (zod v4
 * makes a new instance per `.describe()`, `.min()`, `.optional()`, …), while most starts use none of
 * them before the first turn. Schemas are needed for a model request's JSON Schema, for argument
 * validation and by tests: each of those calls the getter.
 */
import type { z } from 'zod';

let built = 0;

/** Returns a memoised getter: `build` runs once, on the first call. */
export function lazySchema<T extends z.ZodType>(build: () => T): () => T {
  let schema: T | undefined;
  return () => {
    if (schema === undefined) {
      schema = build();
      built += 1;
    }
    return schema;
  };
}

/** How many lazy schemas of this process have been built so far (the laziness test reads it). */
export function lazySchemasBuilt(): number {
  return built;
}
