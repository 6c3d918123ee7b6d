/** Numbers as people read them in the chat and the audit list. */

/** One wording for sizes everywhere: the chips, the audit list and the daemon's own errors. */
export { formatFileSize as formatBytes } from '../../../main/api/attachment-rules.js';

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

export function formatTokens(count: number): string {
  return count.toLocaleString('en-US');
}

/** Small costs keep their significant digits ($0.00042), larger ones are cents. */
export function formatCost(usd: number | null): string {
  if (usd === null) return 'cost unknown';
  if (usd === 0) return '$0';
  if (usd < 0.01) return `$${usd.toPrecision(2)}`;
  return `$${usd.toFixed(2)}`;
}

export function formatTime(iso: string): string {
  return new Date(iso).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
}

export function formatDateTime(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
}

/** A tool's arguments in one line: the command for shell-like tools, else compact JSON. */
export function summarizeArgs(args: unknown, max = 160): string {
  if (args === undefined || args === null) return '';
  if (typeof args === 'object' && !Array.isArray(args)) {
    const record = args as Record<string, unknown>;
    for (const key of ['command', 'path', 'query', 'url', 'pattern']) {
      if (typeof record[key] === 'string') return truncate(record[key] as string, max);
    }
  }
  return truncate(JSON.stringify(args), max);
}

export function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

export function prettyJson(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? '';
  } catch {
    return String(value);
  }
}
