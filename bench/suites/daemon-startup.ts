import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { median, metric, type Metric } from '../metric.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
const BIN = join(ROOT, 'bin', 'fermix.mjs');

function bareNodeStartMs(): number {
  const started = process.hrtime.bigint();
  spawnSync(process.execPath, ['-e', '0']);
  return Number(process.hrtime.bigint() - started) / 1e6;
}

/** Spawns a daemon on a fresh home and polls /health/ready until 200; returns the time and the pid. */
async function daemonReady(): Promise<{ ms: number; rssMb: number }> {
  const home = mkdtempSync(join(tmpdir(), 'fermix-bench-'));
  const started = process.hrtime.bigint();
  const child = spawn(process.execPath, [BIN, 'daemon', '--port', '0'], { env: { ...process.env, FERMIX_HOME: home }, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  const port = await new Promise<number>((resolvePort, reject) => {
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      const match = /127\.0\.0\.1:(\d+)\//.exec(out);
      if (match) resolvePort(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`daemon exited ${code}`)));
  });
  for (;;) {
    const response = await fetch(`http://127.0.0.1:${port}/health/ready`).catch(() => undefined);
    if (response?.status === 200) break;
    await new Promise((r) => setTimeout(r, 2));
  }
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  // Idle RSS: let start-up garbage settle first.
  await new Promise((r) => setTimeout(r, 2000));
  const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  rmSync(home, { recursive: true, force: true });
  return { ms, rssMb: rssKb / 1024 };
}

export async function run(): Promise<Metric[]> {
  const runs = 5;
  const bare: number[] = [];
  const daemon: number[] = [];
  const rss: number[] = [];
  // Interleaved so both see the same machine load.
  for (let index = 0; index < runs; index += 1) {
    bare.push(bareNodeStartMs());
    const result = await daemonReady();
    daemon.push(result.ms);
    rss.push(result.rssMb);
  }
  return [
    metric('daemon_start_to_ready_ms', median(daemon), 'ms', undefined, 'lower', `median of ${runs}`),
    metric('bare_node_start_ms', median(bare), 'ms', undefined, 'lower', `median of ${runs}`),
    metric('daemon_start_ratio_to_bare_node', median(daemon) / median(bare), 'x', 5, 'lower', 'start to /health/ready ÷ `node -e 0`, same run'),
    metric('daemon_idle_rss_mb', median(rss), 'MB', 120, 'lower', '2 s after ready'),
  ];
}
