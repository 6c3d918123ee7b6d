/**
 * Issue item 6: the daemon's resident memory (VmRSS from /proc) idle and after 300 turns, with no
 * forced GC anywhere: a real `fermix daemon` process, the scripted model server streaming a ~400
 * character answer in 40 pieces, turns sent over the control socket as `fermix ask` does, spread over
 * 10 conversations. What held the memory and the V8 flags tried: docs/decisions/0027 (decision 6).
 */
import { readFileSync } from 'node:fs';
import { startModelServer } from '../../test/fixtures/model-server/index.js';
import { startDaemonProcess, tempHome } from '../../test/support/daemon-process.js';
import { callDaemon } from '../../main/cli/control-client.js';
import { homePaths } from '../../main/config/home.js';
import { median, metric, type Metric } from '../metric.js';
import { benchConfig } from './streaming.js';

const TURNS = 300;
const IDLE_SETTLE_MS = 5_000;

function rssMb(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function run(): Promise<Metric[]> {
  const model = await startModelServer();
  model.setScript(() => ({ text: 'The answer is a sentence of moderate length that streams in a number of pieces, as models do. '.repeat(4), chunks: 40 }));
  const idle: number[] = [];
  let afterTurns = 0;
  let afterQuiet = 0;
  let msPerTurn = 0;
  try {
    for (let run = 0; run < 3; run += 1) {
      const home = tempHome('fermix-bench-memory-');
      benchConfig(home, model.baseUrlOpenAI);
      const daemon = await startDaemonProcess(home);
      try {
        await sleep(IDLE_SETTLE_MS);
        idle.push(rssMb(daemon.pid));
        if (run > 0) continue;
        const socket = homePaths(home).socket;
        const started = Date.now();
        for (let index = 0; index < TURNS; index += 1) {
          const sent = (await callDaemon(socket, 'chat.send', { message: `question ${index}`, conversation_id: `bench-${index % 10}`, create_if_missing: true, wait: true, source: 'cli' }, 60_000)) as { turn: { status: string } };
          if (sent.turn.status !== 'completed') throw new Error(`turn ${index} ended ${sent.turn.status}`);
        }
        msPerTurn = (Date.now() - started) / TURNS;
        afterTurns = rssMb(daemon.pid);
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
    metric('memory_rss_after_300_turns_mb', afterTurns, 'MB', 130, 'lower', `right after the last of ${TURNS} turns (${msPerTurn.toFixed(0)} ms/turn), no forced GC`),
    metric('memory_rss_after_300_turns_quiet_mb', afterQuiet, 'MB', 130, 'lower', '12 s later, still no forced GC (V8 memory reducer may run)'),
  ];
}
