// `npm run bench`: runs every suite and writes bench/results.json (machine-readable), printing a table.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import type { Metric } from './metric.js';

const suites: Record<string, () => Promise<{ run(): Promise<Metric[]> }>> = {
  'daemon-startup': () => import('./suites/daemon-startup.js'),
  'tool-search': () => import('./suites/tool-search.js'),
  'deferral-tokens': () => import('./suites/deferral-tokens.js'),
  registry: () => import('./suites/registry.js'),
  renderer: () => import('./suites/renderer.js'),
  hardline: () => import('./suites/hardline.js'),
  store: () => import('./suites/store.js'),
  mcp: () => import('./suites/mcp.js'),
  streaming: () => import('./suites/streaming.js'),
  memory: () => import('./suites/memory.js'),
  'turn-cost': () => import('./suites/turn-cost.js'),
};

const only = process.argv.slice(2);
const results: Record<string, Metric[]> = {};
for (const [name, load] of Object.entries(suites)) {
  if (only.length && !only.includes(name)) continue;
  const started = Date.now();
  results[name] = await (await load()).run();
  console.log(`\n${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  for (const m of results[name]) {
    const goal = m.goal === undefined ? '' : `  goal ${m.direction === 'lower' ? '≤' : '≥'} ${m.goal} ${m.met ? 'met' : 'NOT met'}`;
    console.log(`  ${m.name.padEnd(44)} ${String(m.value).padStart(10)} ${m.unit}${goal}${m.note ? `  (${m.note})` : ''}`);
  }
}
const file = join(import.meta.dirname, 'results.json');
// A filtered run (`npm run bench -- registry`) keeps the other suites' last figures.
const previous = only.length && existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')).suites as Record<string, Metric[]>) : {};
const all = { ...previous, ...results };
// One line for people skimming the file: how many figures meet their goal, and which do not.
const judged = Object.entries(all).flatMap(([suite, metrics]) => metrics.filter((m) => m.goal !== undefined).map((m) => ({ suite, ...m })));
const missed = judged.filter((m) => !m.met);
const verdict = `${judged.length - missed.length} of ${judged.length} figures meet their goal${missed.length ? `; not met: ${missed.map((m) => `${m.suite}/${m.name} ${m.value} ${m.unit} (goal ${m.direction === 'lower' ? '≤' : '≥'} ${m.goal})`).join(', ')}` : ''}`;
writeFileSync(file, JSON.stringify({ date: new Date().toISOString(), node: process.version, cpus: cpus().length, memory_gb: Math.round(totalmem() / 2 ** 30), load_average: loadavg().map((v) => Number(v.toFixed(2))), verdict, suites: all }, null, 2));
console.log(`\n${verdict}`);
console.log(`\nwrote ${file}`);
