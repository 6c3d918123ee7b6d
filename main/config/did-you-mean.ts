/**
 * "Did you mean" for an unknown config key: the known keys at that place come from the zod schema
 * itself (so the list cannot drift from what is accepted), the suggestion is the nearest by edit distance.
 */

/** The keys an object schema accepts at `path` (record keys such as provider names are passed through). */
export function knownKeysAt(schema: unknown, path: string[]): string[] {
  let current: any = schema;
  for (let index = 0; index <= path.length; index += 1) {
    // default / prefault / optional / nullable wrap the object schema that holds the shape.
    while (current?.def && current.def.innerType !== undefined && current.def.type !== 'object' && current.def.type !== 'record') current = current.def.innerType;
    if (current?.def === undefined) return [];
    if (index === path.length) return current.def.type === 'object' ? Object.keys(current.shape) : [];
    if (current.def.type === 'object') current = current.shape[path[index]];
    else if (current.def.type === 'record') current = current.def.valueType;
    else return [];
  }
  return [];
}

function distance(a: string, b: string): number {
  const previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    let diagonal = previous[0];
    previous[0] = i;
    for (let j = 1; j <= b.length; j += 1) {
      const above = previous[j];
      previous[j] = Math.min(previous[j] + 1, previous[j - 1] + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return previous[b.length];
}

/** The closest known key, if it is close enough to be a typo (a third of the length, at least 2 edits). */
export function didYouMean(key: string, known: string[]): string | undefined {
  let best: { key: string; score: number } | undefined;
  for (const candidate of known) {
    const score = distance(key.toLowerCase(), candidate.toLowerCase());
    if (best === undefined || score < best.score) best = { key: candidate, score };
  }
  return best && best.score <= Math.max(2, Math.floor(key.length / 3)) ? best.key : undefined;
}
