/**
 * The host-runtime probe of local MCP plugins (reference §3.2 `runtime`): `node` / `python` must answer
 * `--version` with at least `min_version`; `binary` / `escript` must be found on PATH. Readiness is
 * decided synchronously in `supervisor.reload()`, so the probe is synchronous and cached per command
 * and version: one short `--version` process per runtime for the daemon's life (a PATH change needs a
 * daemon restart or `fermix plugins doctor`, which clears the cache).
 */
import { execFileSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { PluginManifest } from '../../manifest.js';

type LocalRuntime = Extract<NonNullable<PluginManifest['runtime']>, { kind: 'node' | 'python' | 'binary' | 'escript' }>;

export interface ProbeResult {
  ok: boolean;
  /** The version found, or null. */
  version: string | null;
  /** Why not, in words: "node 18.19.0 is older than 20", "python3 was not found on PATH". */
  detail: string | null;
}

const cache = new Map<string, ProbeResult>();

export function clearRuntimeProbeCache(): void {
  cache.clear();
}

function onPath(command: string, path: string | undefined): boolean {
  for (const dir of (path ?? '').split(delimiter)) {
    if (dir === '') continue;
    try {
      accessSync(join(dir, command), constants.X_OK);
      return true;
    } catch {
      // next
    }
  }
  return false;
}

/** Compares dotted numbers: "20.20.2" ≥ "20" is true, "18.19" ≥ "20" is false. */
export function versionAtLeast(found: string, wanted: string): boolean {
  const a = found.split('.').map((part) => Number.parseInt(part, 10) || 0);
  const b = wanted.split('.').map((part) => Number.parseInt(part, 10) || 0);
  for (let i = 0; i < Math.max(a.length, b.length); i += 1) {
    const diff = (a[i] ?? 0) - (b[i] ?? 0);
    if (diff !== 0) return diff > 0;
  }
  return true;
}

export function probeRuntime(runtime: LocalRuntime, env: NodeJS.ProcessEnv = process.env): ProbeResult {
  const key = `${runtime.kind}\u0000${runtime.command}\u0000${runtime.min_version ?? ''}\u0000${env.PATH ?? ''}`;
  const cached = cache.get(key);
  if (cached) return cached;
  let result: ProbeResult;
  if (!onPath(runtime.command, env.PATH)) {
    result = { ok: false, version: null, detail: `${runtime.command} was not found on PATH` };
  } else if (runtime.kind === 'node' || runtime.kind === 'python') {
    try {
      const out = execFileSync(runtime.command, ['--version'], { encoding: 'utf8', timeout: 5_000, stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: env.PATH ?? '' } });
      const version = /(\d+(?:\.\d+){0,2})/.exec(out)?.[1] ?? null;
      if (version === null) result = { ok: false, version: null, detail: `${runtime.command} --version printed no version` };
      else if (runtime.min_version && !versionAtLeast(version, runtime.min_version)) result = { ok: false, version, detail: `${runtime.command} ${version} is older than ${runtime.min_version}` };
      else result = { ok: true, version, detail: null };
    } catch (error) {
      result = { ok: false, version: null, detail: `${runtime.command} --version failed (${(error as Error).message.split('\n')[0]})` };
    }
  } else {
    result = { ok: true, version: null, detail: null };
  }
  cache.set(key, result);
  return result;
}
