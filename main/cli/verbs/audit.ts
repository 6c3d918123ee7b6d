import type { HomePaths } from '../../config/home.js';
import { callDaemon } from '../control-client.js';
import { EXIT, UsageError, type CliIo } from '../output.js';

/** `--since` takes an ISO time or a relative span: 30m, 6h, 7d. */
export function parseSince(value: string | undefined, now = Date.now()): string | undefined {
  if (value === undefined) return undefined;
  const relative = /^(\d+)\s*([smhd])$/.exec(value.trim());
  if (relative) {
    const unit = { s: 1e3, m: 6e4, h: 36e5, d: 864e5 }[relative[2] as 's' | 'm' | 'h' | 'd'];
    return new Date(now - Number(relative[1]) * unit).toISOString();
  }
  const time = Date.parse(value);
  if (Number.isNaN(time)) throw new UsageError(`--since takes an ISO time or a span like 30m, 6h, 7d (got "${value}")`);
  return new Date(time).toISOString();
}

interface AuditRow {
  time: string;
  origin: string;
  trust: string;
  capability: string;
  decision: string;
  rule: string | null;
  duration_ms: number;
  error_code: string | null;
}

export async function auditVerb(io: CliIo, paths: HomePaths, options: { json: boolean; since?: string; capability?: string; decision?: string; exportFormat?: string; limit?: string }): Promise<number> {
  const filter = {
    since: parseSince(options.since),
    capability: options.capability,
    decision: options.decision,
    limit: options.limit === undefined ? 1000 : Number(options.limit),
  };
  if (options.exportFormat !== undefined) {
    if (options.exportFormat !== 'jsonl' && options.exportFormat !== 'csv') throw new UsageError('--export takes jsonl or csv');
    const result = (await callDaemon(paths.socket, 'audit.export', { ...filter, format: options.exportFormat })) as { content: string };
    process.stdout.write(result.content);
    return EXIT.ok;
  }
  const { records } = (await callDaemon(paths.socket, 'audit.query', filter)) as { records: AuditRow[] };
  if (options.json) {
    io.out(JSON.stringify({ schema_version: 1, ok: true, result: { records } }));
    return EXIT.ok;
  }
  if (records.length === 0) io.out('No audit records match.');
  for (const record of records) {
    io.out(`${record.time}  ${record.decision.padEnd(8)} ${record.capability.padEnd(24)} ${record.origin}/${record.trust}  ${record.error_code ?? ''}  ${record.rule ?? ''}`.trimEnd());
  }
  return EXIT.ok;
}
