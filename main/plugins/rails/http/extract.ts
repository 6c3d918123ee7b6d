/** Result shaping: `extract.path` (`items[*]`, `[*]`, `team`, `response.drive_state`) and the field allowlist. */

export function getPath(value: unknown, path: string | undefined): unknown {
  if (!path) return value;
  let current: unknown[] = [value];
  let spread = false;
  for (const raw of path.split('.')) {
    const segments = raw === '[*]' ? ['[*]'] : raw.endsWith('[*]') ? [raw.slice(0, -3), '[*]'] : [raw];
    for (const segment of segments) {
      if (segment === '[*]') {
        spread = true;
        current = current.flatMap((item) => (Array.isArray(item) ? item : []));
      } else {
        current = current.map((item) => (item !== null && typeof item === 'object' && !Array.isArray(item) ? (item as Record<string, unknown>)[segment] : undefined));
      }
    }
  }
  return spread ? current : current[0];
}

export function pickFields(value: unknown, fields: readonly string[] | undefined): unknown {
  if (!fields || fields.length === 0) return value;
  const pick = (item: unknown) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) return item;
    const out: Record<string, unknown> = {};
    for (const field of fields) if (field in (item as Record<string, unknown>)) out[field] = (item as Record<string, unknown>)[field];
    return out;
  };
  return Array.isArray(value) ? value.map(pick) : pick(value);
}
