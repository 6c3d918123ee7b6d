/**
 * Issue item 5: no added delay between the model's first byte and the first token a person sees.
 * A real `fermix daemon` process, a model server on 127.0.0.1 speaking the OpenAI stream format (the
 * fixture's renderer) that stamps the moment it writes an answer's first bytes (the first text piece
 * goes with them), and two observers in this process on the same clock:
 *  - a WebSocket client on /api/events (what the window receives): first chat.delta frame;
 *  - `fermix ask` as a child process (real CLI start-up, chat.send, events.follow): first stdout chunk.
 * The window's paint is measured by the renderer suite (Chromium).
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { WebSocket } from 'ws';
import { openaiStreamEvents } from '../../test/fixtures/model-server/openai-wire.js';
import { planTurn } from '../../test/fixtures/model-server/plan.js';
import { apiCall, BIN, startDaemonProcess, tempHome } from '../../test/support/daemon-process.js';
import { median, metric, percentile, type Metric } from '../metric.js';

const TURNS = 12;
const PIECE_GAP_MS = 40;

/** First write = role chunk + first text piece; the rest follow PIECE_GAP_MS apart. */
export async function startStampingModel(text = 'Streaming answers arrive piece by piece, and the first one should be on screen at once.', pieces = 8) {
  const firstBytes: number[] = [];
  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', async () => {
      const rawBody = Buffer.concat(parts).toString('utf8');
      const body = rawBody ? JSON.parse(rawBody) : {};
      if (req.url?.endsWith('/models')) return void res.end(JSON.stringify({ object: 'list', data: [{ id: 'fermix-test-model', object: 'model', created: 0, owned_by: 'bench' }] }));
      const events = openaiStreamEvents(planTurn({ text, chunks: pieces }, { method: 'POST', path: '/v1/chat/completions', query: '', headers: {}, body, rawBody, vendor: 'openai', aborted: false }), body);
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      firstBytes.push(performance.now());
      res.write(events[0] + events[1]);
      for (const event of events.slice(2)) {
        await new Promise((resolve) => setTimeout(resolve, PIECE_GAP_MS));
        res.write(event);
      }
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, firstBytes, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

export function benchConfig(home: string, baseUrl: string): void {
  writeFileSync(join(home, 'config.toml'), `[providers.local]\ntype = "openai-compatible"\nbase_url = "${baseUrl}"\nmodel = "fermix-test-model"\nprimary = true\ntimeout_ms = 20000\n`);
}

export async function run(): Promise<Metric[]> {
  const model = await startStampingModel();
  const home = tempHome('fermix-bench-stream-');
  benchConfig(home, model.url);
  const daemon = await startDaemonProcess(home);
  const ws = new WebSocket(`ws://127.0.0.1:${daemon.port}/api/events`, { headers: { authorization: `Bearer ${daemon.token}`, origin: daemon.base.replace(/\/$/, '') } });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  const firstDeltaAt = new Map<string, number>();
  ws.on('message', (data) => {
    const message = JSON.parse(String(data)) as { type: string; event?: { type: string; payload: { turn_id: string } } };
    if (message.type === 'event' && message.event?.type === 'chat.delta' && !firstDeltaAt.has(message.event.payload.turn_id)) firstDeltaAt.set(message.event.payload.turn_id, performance.now());
  });
  const toWindowSocket: number[] = [];
  const toCli: number[] = [];
  try {
    // 1. Turns sent over HTTP (as the window does): first byte → first chat.delta on the WebSocket.
    for (let index = 0; index < TURNS; index += 1) {
      const before = model.firstBytes.length;
      const sent = await apiCall(daemon, 'chat.send', { message: `question ${index}`, wait: true });
      const turnId = sent.body.result.turn_id as string;
      toWindowSocket.push(firstDeltaAt.get(turnId)! - model.firstBytes[before]);
    }
    // 2. `fermix ask` as a person runs it: first byte → first chunk on its stdout.
    for (let index = 0; index < TURNS; index += 1) {
      const before = model.firstBytes.length;
      let firstOut: number | undefined;
      const child = spawn(process.execPath, [BIN, 'ask', `question ${index}`], { env: { ...process.env, FERMIX_HOME: home }, stdio: ['ignore', 'pipe', 'ignore'] });
      child.stdout.on('data', () => (firstOut ??= performance.now()));
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      if (code !== 0 || firstOut === undefined) throw new Error(`fermix ask exited ${code} without output`);
      toCli.push(firstOut - model.firstBytes[before]);
    }
  } finally {
    ws.close();
    daemon.child.kill('SIGTERM');
    await daemon.exited;
    await model.close();
  }
  return [
    metric('first_byte_to_first_delta_on_websocket_ms', median(toWindowSocket), 'ms', 50, 'lower', `median of ${TURNS}; p95 ${percentile(toWindowSocket, 95).toFixed(1)} ms; the daemon's share of the ≤ 50 ms painted goal (the paint itself: renderer suite)`),
    metric('first_byte_to_first_token_cli_stdout_ms', median(toCli), 'ms', 20, 'lower', `median of ${TURNS} \`fermix ask\` processes; p95 ${percentile(toCli, 95).toFixed(1)} ms; events.follow over the control socket`),
  ];
}
