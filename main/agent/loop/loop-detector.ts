/**
 * Loop detection (reference §2.1/§6): over the last 10 calls, the 3rd identical call (same real tool
 * name, same arguments) gets a warning appended to its result, and the 5th ends the turn before it
 * runs. Calls are compared after tool_call unwrapping, so `tool_call{x}` and a direct `x` are the
 * same call.
 */
export const LOOP_WINDOW = 10;
export const LOOP_WARN_AT = 3;
export const LOOP_KILL_AT = 5;

export type LoopVerdict = { action: 'run' } | { action: 'warn'; count: number } | { action: 'stop'; count: number };

/** JSON with sorted keys, so {a,b} and {b,a} are the same call. */
export function stableJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  const entries = Object.keys(value as Record<string, unknown>).sort().map((key) => `${JSON.stringify(key)}:${stableJson((value as Record<string, unknown>)[key])}`);
  return `{${entries.join(',')}}`;
}

export function createLoopDetector(window = LOOP_WINDOW, warnAt = LOOP_WARN_AT, killAt = LOOP_KILL_AT) {
  const recent: string[] = [];
  return {
    check(name: string, args: unknown): LoopVerdict {
      const signature = `${name} ${stableJson(args)}`;
      recent.push(signature);
      if (recent.length > window) recent.shift();
      const count = recent.filter((entry) => entry === signature).length;
      if (count >= killAt) return { action: 'stop', count };
      if (count >= warnAt) return { action: 'warn', count };
      return { action: 'run' };
    },
  };
}

export function loopWarning(name: string, count: number): string {
  return `\n\n[loop warning] This is call number ${count} of ${name} with exactly these arguments in the last ${LOOP_WINDOW} calls. The result will not change: use it, change the arguments, or answer. The turn ends at call number ${LOOP_KILL_AT}.`;
}
