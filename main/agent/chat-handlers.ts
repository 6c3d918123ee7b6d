/**
 * API handlers of the chat and providers methods (main/api/methods/chat.ts). The composition root
 * spreads them into its handler table: `{ ...createChatHandlers(agent, { events }) }`.
 */
import type { CallContext, Handlers } from '../api/dispatcher.js';
import type { AgentService } from './agent-service.js';
import type { EventSink } from './loop/turn-events.js';

export type ChatMethodName = 'chat.send' | 'chat.fork' | 'chat.stop' | 'chat.pause' | 'chat.resume' | 'chat.turn' | 'chat.turns' | 'chat.compact' | 'providers.list' | 'providers.models';

export function createChatHandlers(agent: AgentService, options: { events: EventSink }): Pick<Handlers, ChatMethodName> {
  const latestSeq = (stream: string) => options.events.replay?.(stream, Number.MAX_SAFE_INTEGER).latest_seq ?? 0;
  return {
    'chat.send': async (input, context: CallContext) => {
      const after = input.conversation_id ? latestSeq(input.conversation_id) : 0;
      const queued = agent.send({
        message: input.message,
        attachment_ids: input.attachment_ids,
        conversation_id: input.conversation_id,
        create_if_missing: input.create_if_missing,
        title: input.title,
        cwd: input.cwd,
        // Every transport we serve is local and authenticated: operator (dispatcher.ts).
        trust: context.trust,
        origin: input.source === 'cli' ? 'cli' : 'chat',
        interactive: input.interactive,
      });
      const turn = input.wait ? await queued.done : null;
      return { conversation_id: queued.conversation_id, turn_id: queued.turn_id, position: queued.position, events_after_seq: after, turn };
    },
    'chat.fork': (input, context: CallContext) => {
      const forked = agent.fork({ conversation_id: input.conversation_id, turn_id: input.turn_id, message: input.message, trust: context.trust });
      return { conversation_id: forked.conversation_id, turn_id: forked.turn_id, title: forked.title };
    },
    'chat.stop': (input) => ({ stopped: agent.stop(input.conversation_id) }),
    'chat.pause': (input) => agent.pauseTurn(input.conversation_id),
    'chat.resume': (input) => agent.resumeTurn(input.conversation_id),
    'chat.turn': async (input) => (input.wait ? agent.wait(input.turn_id) : agent.turn(input.turn_id)),
    'chat.turns': (input) => ({ turns: agent.turnsOf(input.conversation_id, input.limit) }),
    'chat.compact': async (input) => {
      const row = await agent.compact(input.conversation_id);
      if (!row) return { compacted: false, compaction: null };
      const { conversation_id: _c, provider: _p, model: _m, ...compaction } = row;
      return { compacted: true, compaction };
    },
    'providers.list': async () => {
      const providers = agent.providers.list();
      // The local default is offered only when nothing is configured (issue 4 item 1).
      const ollama = providers.length === 0 ? await agent.providers.probeOllama() : null;
      return { providers, ollama };
    },
    'providers.models': async (input) => ({ models: await agent.providers.models(input.name) }),
  };
}
