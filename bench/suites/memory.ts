/**
 * Issue item 6: the daemon's resident memory (VmRSS from /proc) idle and after 300 turns, with no
 * forced GC anywhere: a real `fermix daemon` process, the scripted model server streaming a ~400
 * character answer in 40 pieces, turns sent over the control socket as `fermix ask` does, spread over
 * 10 conversations. What held the memory and the V8 flags tried: docs/decisions/0027 (decision 6 and
 * "300 turns"). RSS right after the last turn is one point on V8's sawtooth (garbage waiting for a
 * collection), so turns 100–300 are also sampled every 10 ms (p90, max), and the breakdown at the end
 * comes from the daemon itself (memory-probe.mjs, loaded into the 300-turn daemon only) and /proc smaps.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startModelServer } from '../../test/fixtures/model-server/index.js';
import { startDaemonProcess, tempHome } from '../../test/support/daemon-process.js';
import { callDaemon } from '../../main/cli/control-client.js';
import { homePaths } from '../../main/config/home.js';
import { median, metric, percentile, type Metric } from '../metric.js';
import { benchConfig } from './streaming.js';

const TURNS = 300;
const IDLE_SETTLE_MS = 5_000;
const SAMPLE_FROM = 100;
const MB = 2 ** 20;

function rssMb(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
}

/** utime + stime of the process in ms (/proc, 10 ms ticks). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resident MB by kind of mapping: the node binary and libraries (file-backed), malloc's [heap], anonymous (V8, WASM, thread arenas). */
function residentByKind(pid: number): { file: number; mallocHeap: number; anonymous: number } {
  const totals = { file: 0, mallocHeap: 0, anonymous: 0 };
  let kind: keyof typeof totals = 'anonymous';
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const mapping = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (mapping) kind = mapping[1].startsWith('/') ? 'file' : mapping[1] === '[heap]' ? 'mallocHeap' : 'anonymous';
    const rss = /^Rss:\s+(\d+)/.exec(line);
    if (rss) totals[kind] += Number(rss[1]) / 1024;
  }
  return totals;
}

interface ProbeReport {
  usage: NodeJS.MemoryUsage;
  spaces: Record<string, { committed: number; used: number; physical: number }>;
  code: { code_and_metadata_size: number; bytecode_and_metadata_size: number };
  wasm: number[];
}

/** Asks the daemon's probe (SIGUSR2) for its own figures; undefined if it does not answer in 5 s. */
async function probe(pid: number, file: string): Promise<ProbeReport | undefined> {
  rmSync(file, { force: true });
  process.kill(pid, 'SIGUSR2');
  for (let waited = 0; waited < 5_000; waited += 20) {
    if (existsSync(file) && readFileSync(file, 'utf8').endsWith('\n')) return JSON.parse(readFileSync(file, 'utf8')) as ProbeReport;
    await sleep(20);
  }
  return undefined;
}

/** What the RSS right after the last turn is made of (no goals: they explain the figure that has one). */
function breakdown(pid: number, report: ProbeReport | undefined): Metric[] {
  const resident = residentByKind(pid);
  const figures = [
    metric('memory_300_file_backed_mb', resident.file, 'MB', undefined, 'lower', 'node binary and libraries, resident (code and read-only data touched)'),
    metric('memory_300_malloc_heap_mb', resident.mallocHeap, 'MB', undefined, 'lower', "malloc's main arena ([heap])"),
    metric('memory_300_anonymous_mb', resident.anonymous, 'MB', undefined, 'lower', 'V8 heap, WASM linear memory, malloc thread arenas'),
  ];
  if (!report) return figures;
  const space = (name: string) => report.spaces[name] ?? { committed: 0, used: 0, physical: 0 };
  const physical = Object.values(report.spaces).reduce((sum, each) => sum + each.physical, 0);
  return [
    ...figures,
    metric('memory_300_heap_used_mb', report.usage.heapUsed / MB, 'MB', undefined, 'lower', 'V8 heap in use: live objects and garbage not yet collected'),
    metric('memory_300_heap_total_mb', report.usage.heapTotal / MB, 'MB', undefined, 'lower', `V8 heap committed; ${(physical / MB).toFixed(1)} MB of it physical`),
    metric('memory_300_new_space_mb', space('new').committed / MB, 'MB', undefined, 'lower', `young generation committed (${(space('new').used / MB).toFixed(1)} used)`),
    metric('memory_300_old_space_mb', space('old').committed / MB, 'MB', undefined, 'lower', `old generation committed (${(space('old').used / MB).toFixed(1)} used)`),
    metric('memory_300_code_mb', (report.code.code_and_metadata_size + report.code.bytecode_and_metadata_size) / MB, 'MB', undefined, 'lower', `machine code and bytecode; code space committed ${(space('code').committed / MB).toFixed(1)} MB`),
    metric('memory_300_external_mb', report.usage.external / MB, 'MB', undefined, 'lower', `counts the WASM memories' full size; arrayBuffers ${(report.usage.arrayBuffers / MB).toFixed(1)} MB`),
    metric('memory_300_wasm_linear_mb', report.wasm.reduce((sum, bytes) => sum + bytes, 0) / MB, 'MB', undefined, 'lower', `byteLength of ${report.wasm.length} WebAssembly memories (${report.wasm.map((bytes) => (bytes / MB).toFixed(1)).join(' + ')}; web-tree-sitter's, for the hardline's shell parser — SQLite is native since decision 0032): never shrinks, mostly not resident`),
  ];
}

/** Starts the daemon with the probe preloaded (NODE_OPTIONS is read by the daemon's node only: it is restored at once). */
async function startProbedDaemon(home: string, probeFile: string) {
  const saved = { options: process.env.NODE_OPTIONS, probe: process.env.FERMIX_BENCH_MEMORY_PROBE };
  process.env.NODE_OPTIONS = `${saved.options ?? ''} --import ${pathToFileURL(join(import.meta.dirname, 'memory-probe.mjs')).href}`.trim();
  process.env.FERMIX_BENCH_MEMORY_PROBE = probeFile;
  try {
    return await startDaemonProcess(home);
  } finally {
    if (saved.options === undefined) delete process.env.NODE_OPTIONS;
    else process.env.NODE_OPTIONS = saved.options;
    if (saved.probe === undefined) delete process.env.FERMIX_BENCH_MEMORY_PROBE;
    else process.env.FERMIX_BENCH_MEMORY_PROBE = saved.probe;
  }
}

export async function run(): Promise<Metric[]> {
  const model = await startModelServer();
  model.setScript(() => ({ text: 'The answer is a sentence of moderate length that streams in a number of pieces, as models do. '.repeat(4), chunks: 40 }));
  const idle: number[] = [];
  const sawtooth: number[] = [];
  let afterTurns = 0;
  let afterQuiet = 0;
  let msPerTurn = 0;
  let cpuMsPerTurn = 0;
  let parts: Metric[] = [];
  try {
    // Three plain daemons for the idle figure, then one with the probe for the turns.
    for (let run = 0; run < 4; run += 1) {
      const home = tempHome('fermix-bench-memory-');
      benchConfig(home, model.baseUrlOpenAI);
      const probeFile = join(home, 'memory-probe.json');
      const turns = run === 3;
      const daemon = turns ? await startProbedDaemon(home, probeFile) : await startDaemonProcess(home);
      try {
        await sleep(IDLE_SETTLE_MS);
        if (!turns) {
          idle.push(rssMb(daemon.pid));
          continue;
        }
        const socket = homePaths(home).socket;
        const cpuStart = cpuMs(daemon.pid);
        const started = Date.now();
        let sampler: NodeJS.Timeout | undefined;
        try {
          for (let index = 0; index < TURNS; index += 1) {
            if (index === SAMPLE_FROM) sampler = setInterval(() => sawtooth.push(rssMb(daemon.pid)), 10);
            const sent = (await callDaemon(socket, 'chat.send', { message: `question ${index}`, conversation_id: `bench-${index % 10}`, create_if_missing: true, wait: true, source: 'cli' }, 60_000)) as { turn: { status: string } };
            if (sent.turn.status !== 'completed') throw new Error(`turn ${index} ended ${sent.turn.status}`);
          }
          afterTurns = rssMb(daemon.pid);
        } finally {
          clearInterval(sampler);
        }
        msPerTurn = (Date.now() - started) / TURNS;
        cpuMsPerTurn = (cpuMs(daemon.pid) - cpuStart) / TURNS;
        parts = breakdown(daemon.pid, await probe(daemon.pid, probeFile));
        // V8's own memory reducer (not a forced GC) runs once allocation has been quiet for a while.
        await sleep(12_000);
        afterQuiet = rssMb(daemon.pid);
      } finally {
        daemon.child.kill('SIGTERM');
        await daemon.exited;
      }
    }
  } finally {
    await model.close();
  }
  return [
    metric('memory_idle_rss_mb', median(idle), 'MB', 100, 'lower', `median of ${idle.length} daemons, ${IDLE_SETTLE_MS / 1000} s after start; runs ${idle.map((v) => v.toFixed(0)).join('/')} MB`),
    metric('memory_rss_after_300_turns_mb', afterTurns, 'MB', 130, 'lower', `right after the last of ${TURNS} turns (${msPerTurn.toFixed(0)} ms/turn, daemon CPU ${cpuMsPerTurn.toFixed(1)} ms/turn), no forced GC`),
    metric('memory_rss_turns_100_300_p90_mb', percentile(sawtooth, 90), 'MB', undefined, 'lower', `${sawtooth.length} samples, every 10 ms during turns ${SAMPLE_FROM}-${TURNS}; median ${median(sawtooth).toFixed(1)} MB`),
    metric('memory_rss_turns_100_300_max_mb', Math.max(...sawtooth), 'MB', 130, 'lower', 'the highest sample: what "right after the last turn" reads at the worst moment of the sawtooth'),
    metric('memory_rss_after_300_turns_quiet_mb', afterQuiet, 'MB', 130, 'lower', '12 s later, still no forced GC (V8 memory reducer may run)'),
    ...parts,
  ];
}
