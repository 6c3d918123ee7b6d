/**
 * `fermix ask [--json] [--session ID] [--stdin] [--timeout MS] MESSAGE...` and `fermix chat [--session ID]`
 * (reference §2.18). Both talk to the running daemon over the control socket: one `chat.send`, then
 * the turn's events are pushed over a second connection (`events.follow`, turn-stream.ts) and the
 * answer is printed token by token as it streams. The caller's working directory goes to the
 * sandbox; the trust is operator (the socket's 0600 permissions are the boundary).
 */
import { parseArgs } from 'node:util';
import { homePaths, resolveHome, type HomePaths } from '../../config/home.js';
import { formatErrorForPeople, isFermixError, type WireError } from '../../core/errors.js';
import { callDaemon } from '../control-client.js';
import { EXIT, UsageError, processIo, reportError, type CliIo } from '../output.js';
import { streamTurn, type TerminalIo, type TurnResult } from './turn-stream.js';

export const ASK_USAGE = 'usage: fermix ask [--json] [--session ID] [--stdin] [--timeout MS] MESSAGE...';

export interface AskEnvironment {
  io: CliIo;
  term: TerminalIo;
  paths: HomePaths;
  cwd: string;
  readStdin(): Promise<string>;
}

export function processEnvironment(): AskEnvironment {
  return {
    io: processIo,
    paths: homePaths(resolveHome()),
    cwd: process.cwd(),
    readStdin: async () => {
      const parts: Buffer[] = [];
      for await (const chunk of process.stdin) parts.push(chunk as Buffer);
      return Buffer.concat(parts).toString('utf8');
    },
    term: {
      write: (text) => void process.stdout.write(text),
      isTTY: Boolean(process.stdin.isTTY && process.stdout.isTTY),
      question: async (prompt) => {
        const { createInterface } = await import('node:readline/promises');
        const rl = createInterface({ input: process.stdin, output: process.stderr });
        try {
          return await rl.question(prompt);
        } finally {
          rl.close();
        }
      },
      onInterrupt: (handler) => {
        process.on('SIGINT', handler);
        return () => void process.off('SIGINT', handler);
      },
    },
  };
}

export function parseTimeout(value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const ms = Number(value);
  if (!Number.isInteger(ms) || ms < 1000) throw new UsageError(`--timeout takes milliseconds (at least 1000), got "${value}"`);
  return ms;
}

function summaryJson(result: TurnResult) {
  return {
    conversation_id: result.conversation_id,
    turn_id: result.turn_id,
    status: result.status,
    text: result.text,
    stop_reason: result.stop_reason,
    provider: result.provider,
    model: result.model,
    usage: result.usage,
    cost_usd: result.cost_usd,
  };
}

/** The footer, only when something is known: a turn that never reached a model printed "[?/? · 0 in / 0 out tokens]". */
export function usageLine(result: TurnResult): string | undefined {
  if (result.usage.input_tokens === 0 && result.usage.output_tokens === 0) return undefined;
  const cost = result.cost_usd === null ? '' : `, ~$${result.cost_usd.toFixed(4)}`;
  const who = [result.provider, result.model].filter(Boolean).join('/');
  return `[${who ? `${who} · ` : ''}${result.usage.input_tokens} in / ${result.usage.output_tokens} out tokens${cost}]`;
}

function printUsage(io: CliIo, result: TurnResult): void {
  const line = usageLine(result);
  if (line) io.err(line);
}

/** Exit code and message for a finished turn, printed the same way by ask and chat. */
export function reportTurn(io: CliIo, result: TurnResult): number {
  if (result.status === 'completed') return EXIT.ok;
  if (result.status === 'partial') {
    io.err(`fermix: the answer is incomplete (${result.stop_reason ?? 'stopped early'}).${result.error ? `\n  → ${result.error.hint}` : ''}`);
    return EXIT.ok;
  }
  if (result.error) io.err(`fermix: ${formatErrorForPeople(result.error)}`);
  else io.err(`fermix: the turn ended: ${result.status}.`);
  return EXIT.failure;
}

export async function runAsk(argv: string[], env: AskEnvironment = processEnvironment()): Promise<number> {
  let json = argv.includes('--json');
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        json: { type: 'boolean', default: false },
        session: { type: 'string' },
        stdin: { type: 'boolean', default: false },
        timeout: { type: 'string' },
      },
    });
    json = values.json ?? false;
    const timeoutMs = parseTimeout(values.timeout, 600_000);
    let message = positionals.join(' ').trim();
    if (values.stdin) {
      const piped = (await env.readStdin()).trim();
      message = message ? `${message}\n\n${piped}` : piped;
    }
    if (!message) throw new UsageError(`a message is required (${ASK_USAGE})`);

    // Approval cards can be answered here only when a person is at the terminal.
    const interactive = env.term.isTTY && !json && !values.stdin;
    const sent = (await callDaemon(env.paths.socket, 'chat.send', {
      message,
      conversation_id: values.session,
      create_if_missing: values.session !== undefined,
      cwd: env.cwd,
      source: 'cli',
      interactive,
      wait: json,
    }, json ? timeoutMs : 30_000)) as { conversation_id: string; turn_id: string; events_after_seq: number; turn: TurnResult | null };

    if (json) {
      const result = sent.turn!;
      const ok = result.status === 'completed' || result.status === 'partial';
      if (ok) env.io.out(JSON.stringify({ schema_version: 1, ok: true, result: summaryJson(result) }));
      else env.io.out(JSON.stringify({ schema_version: 1, ok: false, error: result.error ?? { code: result.status, message: `The turn ended: ${result.status}.`, hint: '' }, result: summaryJson(result) }));
      return ok ? EXIT.ok : EXIT.failure;
    }
    const result = await streamTurn({ socket: env.paths.socket, term: env.term, io: env.io, conversationId: sent.conversation_id, turnId: sent.turn_id, afterSeq: sent.events_after_seq, timeoutMs, interactive });
    if (result.text && !result.text.endsWith('\n')) env.term.write('\n');
    printUsage(env.io, result);
    if (values.session === undefined) env.io.err(`(continue with --session ${result.conversation_id})`);
    return reportTurn(env.io, result);
  } catch (error) {
    if (error instanceof TypeError && (error as NodeJS.ErrnoException).code?.startsWith('ERR_PARSE_ARGS')) {
      return reportError(env.io, new UsageError(`${error.message}\n${ASK_USAGE}`), json);
    }
    return reportError(env.io, error, json);
  }
}

/** `fermix chat`: one conversation, a prompt per message; Ctrl-C stops a running turn, Ctrl-D leaves. */
export async function runChat(argv: string[], env: AskEnvironment = processEnvironment()): Promise<number> {
  try {
    const { values } = parseArgs({ args: argv, allowPositionals: false, strict: true, options: { session: { type: 'string' }, timeout: { type: 'string' } } });
    const timeoutMs = parseTimeout(values.timeout, 600_000);
    let conversationId = values.session;
    env.io.err('fermix chat — type a message; /new starts a new conversation, /exit or Ctrl-D leaves, Ctrl-C stops an answer.');
    for (;;) {
      let line: string;
      try {
        line = (await env.term.question('you> ')).trim();
      } catch {
        return EXIT.ok; // Ctrl-D / closed input
      }
      if (line === '/exit' || line === '/quit') return EXIT.ok;
      if (line === '/new') {
        conversationId = undefined;
        env.io.err('(new conversation)');
        continue;
      }
      if (line === '') continue;
      try {
        const sent = (await callDaemon(env.paths.socket, 'chat.send', { message: line, conversation_id: conversationId, create_if_missing: conversationId !== undefined, cwd: env.cwd, source: 'cli', interactive: env.term.isTTY })) as { conversation_id: string; turn_id: string; events_after_seq: number };
        conversationId = sent.conversation_id;
        const result = await streamTurn({ socket: env.paths.socket, term: env.term, io: env.io, conversationId, turnId: sent.turn_id, afterSeq: sent.events_after_seq, timeoutMs, interactive: env.term.isTTY });
        if (result.text && !result.text.endsWith('\n')) env.term.write('\n');
        printUsage(env.io, result);
        reportTurn(env.io, result);
      } catch (error) {
        if (isFermixError(error) && error.code === 'daemon_not_running') return reportError(env.io, error, false);
        env.io.err(`fermix: ${isFermixError(error) ? formatErrorForPeople(error.toWire() as WireError) : String(error)}`);
      }
    }
  } catch (error) {
    if (error instanceof TypeError && (error as NodeJS.ErrnoException).code?.startsWith('ERR_PARSE_ARGS')) {
      return reportError(env.io, new UsageError(`${error.message}\nusage: fermix chat [--session ID] [--timeout MS]`), false);
    }
    return reportError(env.io, error, false);
  }
}
