/**
 * Parse options for schemas parsed once or rarely (config.toml, the plugin catalog, a plugin's manifest
 * or settings table): on an object schema's first parse zod v4 compiles a fast path with `new Function`,
 * which costs more than such a parse itself, at every daemon start (a few ms of main-thread time with
 * all of zod's JIT off: docs/decisions/0027, third pass). Hot parses (API requests, tool arguments) keep it.
 */
export const ONE_SHOT_PARSE = { jitless: true } as const;
