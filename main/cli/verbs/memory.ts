/**
 * `fermix memory list|search WORDS|forget ID|KEY` — the owner's stored memories in the running daemon
 * (the agent writes them with memory_store; only the owner forgets them). `--json` prints reference
 * §2.18's envelope.
 */
import type { HomePaths } from '../../config/home.js';
import { callDaemon } from '../control-client.js';
import { printResult, UsageError, type CliIo } from '../output.js';

export const MEMORY_USAGE = `usage: fermix memory list [--limit N] [--json]      every memory, newest first (default 200)
       fermix memory search WORDS… [--history] [--json]   full-text search (--history: past conversations too)
       fermix memory forget ID|KEY [--json]         delete one memory by id, or every memory with that key`;

interface MemoryLine { id: number; key: string; value: string; category: string; scope: string; written_by: string; updated_at: string }
interface HistoryLine { conversation_id: string; title: string; role: string; snippet: string; created_at: string }

function oneLine(text: string, max = 70): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

function memoryRows(memories: MemoryLine[]): string[] {
  const idWidth = Math.max(2, ...memories.map((memory) => String(memory.id).length));
  const keyWidth = Math.min(28, Math.max(3, ...memories.map((memory) => memory.key.length)));
  return memories.map((memory) => `${String(memory.id).padStart(idWidth)}  ${memory.key.padEnd(keyWidth)}  ${memory.category.padEnd(10)} ${memory.scope.padEnd(9)} ${oneLine(memory.value)}${memory.written_by === 'guest' ? '  (written in a guest turn)' : ''}`);
}

export async function memoryVerb(io: CliIo, paths: HomePaths, words: string[], options: { json: boolean; limit?: string; history: boolean }): Promise<number> {
  const [sub, ...rest] = words;
  const print = (result: unknown, human: () => void) => printResult(io, options.json, result, human);
  switch (sub) {
    case undefined:
    case 'list': {
      const limit = options.limit === undefined ? 200 : Number(options.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new UsageError('--limit takes 1..1000');
      const result = (await callDaemon(paths.socket, 'memory.list', { limit })) as { memories: MemoryLine[] };
      return print(result, () => {
        if (result.memories.length === 0) io.out('No memories are stored. The agent stores what you tell it to remember (memory_store).');
        else io.out(memoryRows(result.memories).join('\n'));
      });
    }
    case 'search': {
      if (rest.length === 0) throw new UsageError(`fermix memory search needs words to look for. ${MEMORY_USAGE}`);
      const result = (await callDaemon(paths.socket, 'memory.search', { query: rest.join(' '), source: options.history ? 'all' : 'memories' })) as { memories: MemoryLine[]; history: HistoryLine[] };
      return print(result, () => {
        if (result.memories.length === 0 && result.history.length === 0) {
          io.out(`Nothing matched "${rest.join(' ')}".${options.history ? '' : ' Add --history to search past conversations too.'}`);
          return;
        }
        if (result.memories.length > 0) io.out(memoryRows(result.memories).join('\n'));
        for (const hit of result.history) io.out(`${hit.created_at}  ${hit.conversation_id}  ${hit.role}: ${oneLine(hit.snippet)}  (${oneLine(hit.title, 40)})`);
      });
    }
    case 'forget': {
      if (rest.length !== 1) throw new UsageError(`fermix memory forget takes one ID or KEY (\`fermix memory list\` shows them). ${MEMORY_USAGE}`);
      const result = (await callDaemon(paths.socket, 'memory.forget', { target: rest[0] })) as { removed: MemoryLine[] };
      return print(result, () => {
        for (const memory of result.removed) io.out(`Forgot memory ${memory.id} (${memory.key}, scope ${memory.scope}).`);
      });
    }
    default:
      throw new UsageError(`unknown memory subverb "${sub}"; use list, search or forget. ${MEMORY_USAGE}`);
  }
}
