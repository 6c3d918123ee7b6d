import { createInterface } from 'node:readline';
import { callDaemon } from './control-client.js';
import type { CliIo } from './output.js';

interface Pending {
  id: string;
  capability: string;
  args: unknown;
  reason: string;
  conversation_id: string | null;
  always_covers: { permission: string; pattern?: string; action: string; unjailed?: boolean };
  warning?: string | null;
}

const ANSWERS: Record<string, 'once' | 'always' | 'deny'> = { o: 'once', once: 'once', y: 'once', yes: 'once', a: 'always', always: 'always', d: 'deny', deny: 'deny', n: 'deny', no: 'deny' };

/**
 * While a CLI call is in flight, shows this call's approval cards and sends the person's answer
 * (once / always / deny). "always" shows exactly the rule it will store before asking.
 * Answers come from the terminal, or from piped stdin lines with `--interactive`.
 */
export function promptForApprovals(io: CliIo, socket: string, conversationId: string): { stop(): void } {
  const lines = createInterface({ input: process.stdin, terminal: false });
  const queued: string[] = [];
  let waiting: ((line: string) => void) | undefined;
  lines.on('line', (line) => (waiting ? (waiting(line), (waiting = undefined)) : queued.push(line)));
  const nextLine = () => new Promise<string>((resolve) => (queued.length ? resolve(queued.shift()!) : (waiting = resolve)));
  const handled = new Set<string>();
  let stopped = false;

  const loop = async () => {
    while (!stopped) {
      const { pending } = (await callDaemon(socket, 'approvals.list', {}).catch(() => ({ pending: [] }))) as { pending: Pending[] };
      for (const card of pending.filter((entry) => entry.conversation_id === conversationId && !handled.has(entry.id))) {
        handled.add(card.id);
        const rule = `${card.always_covers.permission}${card.always_covers.pattern ? ` with arguments matching "${card.always_covers.pattern}"` : ''}${card.always_covers.unjailed ? ' (runs unjailed)' : ''}`;
        io.err(`\nApproval needed: ${card.capability} ${JSON.stringify(card.args)}${card.warning ? `\n  ${card.warning}` : ''}\n  why: ${card.reason}\n  "always" will allow: ${rule}`);
        let answer: 'once' | 'always' | 'deny' | undefined;
        while (!answer && !stopped) {
          io.err('Allow? [o]nce / [a]lways / [d]eny: ');
          answer = ANSWERS[(await nextLine()).trim().toLowerCase()];
        }
        if (answer) await callDaemon(socket, 'approvals.answer', { id: card.id, answer }).catch((error) => io.err(`Could not answer: ${(error as Error).message}`));
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  };
  void loop();
  return {
    stop() {
      stopped = true;
      lines.close();
      waiting?.('');
    },
  };
}
