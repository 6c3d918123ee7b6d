/**
 * One log line for people: `09:26:01.123 INFO  turn finished  status=completed provider=local`. The file
 * stays JSON lines (programs, `fermix logs --json`); a line that is not JSON is shown as it is.
 */
export function formatLogLine(line: string): string {
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  if (record === null || typeof record !== 'object' || typeof record.msg !== 'string') return line;
  const { time, level, msg, ...fields } = record;
  const when = typeof time === 'string' ? time.replace('T', ' ').replace(/Z$/, '') : '';
  const rest = Object.entries(fields).map(([key, value]) => `${key}=${typeof value === 'string' ? (/\s/.test(value) ? JSON.stringify(value) : value) : JSON.stringify(value)}`);
  return `${when} ${String(level ?? '').toUpperCase().padEnd(5)} ${msg}${rest.length > 0 ? `  ${rest.join(' ')}` : ''}`.trimStart();
}
