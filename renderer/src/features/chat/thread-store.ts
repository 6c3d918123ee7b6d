import { createStore, type StoreApi } from 'zustand/vanilla';
import type { EventEnvelope } from '../../../../main/api/events.js';
import type { WireError } from '../../../../main/core/errors.js';
import type { ApiClient } from '../../api/client.js';
import { toWireError } from '../connection/store.js';
import { localAttachment, type PendingFile } from './attachments/attachment-types.js';
import { discardUploads, uploadFiles } from './attachments/upload.js';
import { firstWords } from '../conversations/first-words.js';
import { messageText, parseSlashCommand, SLASH_COMMANDS, type SlashCommand } from './slash-commands.js';
import { applyThreadEvent, approvalFromCard } from './thread/apply-event.js';
import { messageActions } from './thread/message-actions.js';
import { buildThread, matchMessagesToTurns } from './thread/build-thread.js';
import { activeTurn, type Compaction, type StoredMessage, type Thread, type ThreadItem, type TurnSummary } from './thread/thread-types.js';

export interface ThreadDeps {
  client: ApiClient;
  /** `/new` and a first message with no conversation open: create one, select it, wait until it is open. */
  createConversation(title?: string): Promise<string | undefined>;
  /** `/new [title]`: an empty draft; the conversation is stored with the first message (createConversation). */
  startDraft?(title?: string): Promise<void>;
  pauseComputer(): Promise<string>;
  resumeComputer(): Promise<string>;
}

export interface ThreadState {
  /** The conversation being shown (set at once when one is picked, before its rows have loaded). */
  conversationId: string | null;
  /** The open conversation's rows; null when none is open or it is still loading. */
  thread: Thread | null;
  loading: boolean;
  loadError: WireError | null;
  sending: boolean;
  /** What slash commands said while no conversation was open (shown in its place). */
  notices: ThreadItem[];
  open(conversationId: string | null): Promise<void>;
  reload(): Promise<void>;
  applyEvent(event: EventEnvelope): void;
  /** A message, or a slash command (handled here, never sent to the model). Files go up first (attachments/upload.ts). */
  submit(input: string, files?: readonly PendingFile[]): Promise<void>;
  stop(): Promise<void>;
  /** Reads the page of messages before the oldest one shown (the "Show earlier messages" row). */
  loadEarlier(): Promise<void>;
  /** `/compact`: summarize the conversation now (chat.compact), then show where it was cut. */
  compact(): Promise<void>;
  /** Holds the running turn after its current step (chat.pause); the result is said in the thread. */
  pauseTurn(): Promise<void>;
  resumeTurn(): Promise<void>;
  /** `scope`: one of the card's scopes for an "always" answer (absent = the daemon's default). */
  answerApproval(approvalId: string, answer: 'once' | 'always' | 'deny', scope?: string): Promise<void>;
  /** A message whose send failed, sent again (its row is replaced by the new attempt). */
  retrySend(key: string): Promise<void>;
  /** Edit-and-resend (with `message`) or regenerate (without): chat.fork; resolves to the new conversation's id. */
  fork(turnId: string, message?: string): Promise<string | undefined>;
  /** After a stop: asks the model to go on where it stopped, as a new message. */
  continueTurn(): Promise<void>;
  answerDirectory(token: string, decision: 'confirm' | 'deny'): Promise<void>;
}

type Item<K extends ThreadItem['kind']> = Extract<ThreadItem, { kind: K }>;

/** Turns read when a conversation opens (fast), then all the API gives (chat.turns' maximum). */
const RECENT_TURNS = 40;
const ALL_TURNS = 500;
/** Messages read when a conversation opens; a longer conversation shows its newest ones. */
const HISTORY_LIMIT = 5000;


export function createThreadStore(deps: ThreadDeps): StoreApi<ThreadState> {
  const { client } = deps;
  let loadToken = 0;
  /** The load in flight, so a message typed meanwhile waits for it instead of starting a conversation. */
  let opening: Promise<void> = Promise.resolve();
  /** Events that arrive while a conversation loads, applied once its snapshot is in. */
  let buffered: EventEnvelope[] | null = null;
  let localCounter = 0;
  let enrichTimer: ReturnType<typeof setTimeout> | undefined;
  let textTimer: ReturnType<typeof setTimeout> | undefined;

  return createStore<ThreadState>()((set, get) => {
    const update = (change: (thread: Thread) => Thread) => {
      const thread = get().thread;
      if (thread) set({ thread: change(thread) });
    };
    const mapItems = (change: (item: ThreadItem) => ThreadItem) => update((thread) => ({ ...thread, items: thread.items.map(change) }));
    const notice = (text: string, error: WireError | null = null) => {
      const thread = get().thread;
      const turnId = thread ? (activeTurn(thread)?.turnId ?? null) : null;
      const item: ThreadItem = { kind: 'notice', key: `n:${++localCounter}`, text, error, turnId };
      // Text streamed after the notice starts below it: the streaming row is closed here.
      if (thread) update((current) => ({ ...current, items: [...current.items.map((row) => (row.kind === 'assistant' && row.streaming && row.turnId === turnId ? { ...row, streaming: false } : row)), item] }));
      else set({ notices: [...get().notices, item] });
    };

    /** approval.requested names no rule; approvals.list has the card with `always_covers`. */
    const enrichApprovals = () => {
      clearTimeout(enrichTimer);
      enrichTimer = setTimeout(async () => {
        try {
          const { pending } = await client.call('approvals.list');
          mapItems((item) => {
            if (item.kind !== 'approval' || item.alwaysCovers) return item;
            const card = pending.find((each) => each.id === item.approvalId);
            return card ? { ...approvalFromCard(card, item), key: item.key, state: item.state, turnId: item.turnId, callId: item.callId } : item;
          });
        } catch {
          // The card still works without the detail; the next event tries again.
        }
      }, 50);
    };

    /** Messages with their turn ids (chat.history), or without them from a daemon that lacks it. */
    const readMessages = async (conversationId: string): Promise<StoredMessage[]> => (await readPage(conversationId)).messages;
    const readPage = async (conversationId: string): Promise<{ messages: StoredMessage[]; hasMore: boolean; compactions: Compaction[] }> => {
      try {
        const page = await client.call('chat.history', { conversation_id: conversationId, limit: HISTORY_LIMIT });
        return { messages: page.messages, hasMore: page.has_more, compactions: page.compactions ?? [] };
      } catch (error) {
        const code = toWireError(error).code;
        if (code !== 'not_implemented' && code !== 'method_not_found') throw error;
        return { messages: (await client.call('conversations.get', { id: conversationId })).messages, hasMore: false, compactions: [] };
      }
    };

    /** A turn sent from elsewhere (the CLI, another window): its message is read once the turn has written it. */
    const fillUserTexts = () => {
      clearTimeout(textTimer);
      textTimer = setTimeout(async () => {
        const thread = get().thread;
        if (!thread || !thread.items.some((item) => item.kind === 'user' && item.text === null && thread.turns[item.turnId ?? ''] !== 'queued')) return;
        try {
          const [messages, { turns }] = await Promise.all([readMessages(thread.conversationId), client.call('chat.turns', { conversation_id: thread.conversationId, limit: 50 })]);
          const matched = matchMessagesToTurns(messages, turns);
          const texts = new Map([...matched].map(([id, turn]) => [turn.turn_id, messages.find((message) => message.id === id)!.content]));
          mapItems((item) => (item.kind === 'user' && item.text === null && item.turnId && texts.has(item.turnId) ? { ...item, text: texts.get(item.turnId)! } : item));
        } catch {
          // Shown as "(sent from elsewhere)" until the next reload.
        }
      }, 100);
    };

    const load = async (conversationId: string | null): Promise<void> => {
      const token = ++loadToken;
      if (conversationId === null) {
        buffered = null;
        set({ conversationId: null, thread: null, loading: false, loadError: null });
        return;
      }
      buffered = [];
      set({ conversationId, loading: true, loadError: null, notices: [], thread: get().thread?.conversationId === conversationId ? get().thread : null });
      try {
        const [{ turns }, { messages, hasMore, compactions }, { pending: approvals }, { pending: directories }] = await Promise.all([
          client.call('chat.turns', { conversation_id: conversationId, limit: RECENT_TURNS }),
          readPage(conversationId),
          client.call('approvals.list'),
          client.call('directory_access.pending', { conversation_id: conversationId }),
        ]);
        // Read last: everything that happened while the rest loaded is in it.
        const replay = await client.call('events.replay', { stream: conversationId, after_seq: 0 });
        if (token !== loadToken) return;
        let thread = buildThread({ conversationId, messages, turns, approvals, directories, replay, compactions });
        for (const event of buffered ?? []) thread = applyThreadEvent(thread, event);
        buffered = null;
        if (hasMore && messages.length > 0) thread = { ...thread, items: [{ kind: 'earlier', key: 'earlier', beforeId: messages[0].id, loading: false, error: null }, ...thread.items] };
        set({ thread, loading: false });
        fillUserTexts();
        if (turns.length === RECENT_TURNS) void addOlderTurns(conversationId, messages, new Set(turns.map((turn) => turn.turn_id)), token);
      } catch (error) {
        if (token !== loadToken) return;
        buffered = null;
        set({ loading: false, loadError: toWireError(error) });
      }
    };

    /**
     * A long conversation opens with its recent turns; the older ones (tool cards, tokens and cost) follow.
     * Finished turns never change, so the part above the first recent turn is swapped in whole.
     */
    const addOlderTurns = async (conversationId: string, messages: StoredMessage[], recent: Set<string>, token: number) => {
      let turns: TurnSummary[];
      try {
        ({ turns } = await client.call('chat.turns', { conversation_id: conversationId, limit: ALL_TURNS }));
      } catch {
        return; // the older part stays plain text
      }
      const current = get().thread;
      if (token !== loadToken || !current || current.conversationId !== conversationId) return;
      const older = buildThread({ conversationId, messages, turns, approvals: [], directories: [], replay: { events: [], latest_seq: 0, complete: true } });
      // The first message of the recent turns: everything above it is older history.
      const anchor = current.items.findIndex((item) => item.kind === 'user' && item.turnId !== null && recent.has(item.turnId));
      if (anchor <= 0) return;
      const end = older.items.findIndex((item) => item.key === current.items[anchor].key);
      if (end === -1) return;
      const earlier = current.items.filter((item) => item.kind === 'earlier');
      set({ thread: { ...current, items: [...earlier, ...older.items.slice(0, end), ...current.items.slice(anchor)], turns: { ...older.turns, ...current.turns } } });
    };

    const runCommand = async (command: SlashCommand) => {
      try {
        switch (command.name) {
          case 'stop':
            return await get().stop();
          case 'pause':
          case 'resume': {
            const said = await (command.name === 'pause' ? deps.pauseComputer() : deps.resumeComputer());
            // /pause is about computer use (the seed); say how to hold the turn when one is running.
            const turnHint = activeTurn(get().thread) ? ` To ${command.name} the running turn itself, type /${command.name} turn or use the Turn control.` : '';
            return notice(said + turnHint);
          }
          case 'compact':
            return await get().compact();
          case 'pause-turn':
            return await get().pauseTurn();
          case 'resume-turn':
            return await get().resumeTurn();
          case 'new':
            if (deps.startDraft) await deps.startDraft(command.title);
            else await deps.createConversation(command.title);
            return;
          case 'confirm':
          case 'deny':
            return await get().answerDirectory(command.token, command.name);
          case 'help':
            return notice(SLASH_COMMANDS.map((each) => `${each.usage} — ${each.summary}`).join('\n'));
          case 'invalid':
            return notice(command.message, { code: 'unknown_command', message: command.message, hint: command.hint });
        }
      } catch (error) {
        notice(`/${command.name} did not work.`, toWireError(error));
      }
    };

    return {
      conversationId: null,
      thread: null,
      loading: false,
      loadError: null,
      sending: false,
      notices: [],

      open(conversationId) {
        opening = load(conversationId);
        return opening;
      },

      async reload() {
        const current = get().thread?.conversationId;
        if (current) await get().open(current);
      },

      applyEvent(event) {
        if (buffered) {
          buffered.push(event);
          return;
        }
        const before = get().thread;
        if (!before) return;
        const after = applyThreadEvent(before, event);
        if (after === before) return;
        set({ thread: after });
        if (event.stream !== before.conversationId) return;
        if (event.type === 'approval.requested') enrichApprovals();
        if (event.type === 'chat.turn_started') fillUserTexts();
      },

      async submit(input, files = []) {
        const command = parseSlashCommand(input);
        if (command) return runCommand(command);
        const text = messageText(input);
        if (!text && files.length === 0) return;
        set({ sending: true });
        try {
          let conversationId: string | null | undefined = get().conversationId;
          if (!conversationId) conversationId = await deps.createConversation(firstWords(text || files[0].name));
          await opening;
          if (!conversationId || get().thread?.conversationId !== conversationId) return;
          const key = `local:${++localCounter}`;
          const attachments = files.length > 0 ? { attachments: files.map(localAttachment) } : {};
          update((thread) => ({ ...thread, items: [...thread.items, { kind: 'user', key, turnId: null, text, time: new Date().toISOString(), reaction: null, pending: true, failed: null, ...attachments }] }));
          try {
            const uploaded = await uploadFiles(client, conversationId, files);
            const ids = uploaded.length > 0 ? { attachment_ids: uploaded.map((each) => each.id) } : {};
            const sent = await client.call('chat.send', { message: text, conversation_id: conversationId, ...ids }).catch(async (error: unknown) => {
              await discardUploads(client, uploaded);
              throw error;
            });
            mapItems((item) => (item.key === key && item.kind === 'user' && item.turnId === null ? { ...item, turnId: sent.turn_id, pending: false } : item));
            // By key alone: chat.turn_queued may have bound the item to its turn before this answer came.
            if (uploaded.length > 0) mapItems((item) => (item.key === key && item.kind === 'user' ? { ...item, attachments: item.attachments?.map((each, index) => ({ ...each, id: uploaded[index]?.id ?? null })) } : item));
            update((thread) => (thread.turns[sent.turn_id] ? thread : { ...thread, turns: { ...thread.turns, [sent.turn_id]: 'queued' } }));
          } catch (error) {
            mapItems((item) => (item.key === key && item.kind === 'user' ? { ...item, pending: false, failed: toWireError(error) } : item));
          }
        } finally {
          set({ sending: false });
        }
      },

      async stop() {
        const thread = get().thread;
        if (!thread || !activeTurn(thread)) {
          notice('Nothing is running in this conversation.');
          return;
        }
        try {
          await client.call('chat.stop', { conversation_id: thread.conversationId });
        } catch (error) {
          notice('Stopping did not work.', toWireError(error));
        }
      },

      async loadEarlier() {
        const row = get().thread?.items[0];
        if (!row || row.kind !== 'earlier' || row.loading) return;
        const conversationId = get().thread!.conversationId;
        const setRow = (change: Partial<Item<'earlier'>>) => mapItems((item) => (item.kind === 'earlier' ? { ...item, ...change } : item));
        setRow({ loading: true, error: null });
        try {
          const page = await client.call('chat.history', { conversation_id: conversationId, limit: HISTORY_LIMIT, before_id: row.beforeId });
          const current = get().thread;
          if (!current || current.conversationId !== conversationId) return;
          // Older pages are plain messages: their turns are beyond what chat.turns reads.
          const older = buildThread({ conversationId, messages: page.messages, turns: [], approvals: [], directories: [], replay: { events: [], latest_seq: 0, complete: true }, compactions: page.compactions ?? [] }).items;
          const rest = current.items.filter((item) => item.kind !== 'earlier');
          const shown = new Set(rest.map((item) => item.key));
          const head: ThreadItem[] = page.has_more && page.messages.length > 0 ? [{ kind: 'earlier', key: 'earlier', beforeId: page.messages[0].id, loading: false, error: null }] : [];
          set({ thread: { ...current, items: [...head, ...older.filter((item) => !shown.has(item.key)), ...rest] } });
        } catch (error) {
          setRow({ loading: false, error: toWireError(error) });
        }
      },

      async compact() {
        const thread = get().thread;
        if (!thread) return notice('Open a conversation first.');
        notice('Compacting the conversation…');
        try {
          const result = await client.call('chat.compact', { conversation_id: thread.conversationId });
          if (!result.compacted) return notice('Nothing to compact: the conversation is already short.');
          await get().reload();
          notice(`Conversation compacted: ${result.compaction!.replaced_messages} messages are summarized for the model (they stay here for you).`);
        } catch (error) {
          notice('Compacting did not work.', toWireError(error));
        }
      },

      async pauseTurn() {
        const thread = get().thread;
        if (!thread || !activeTurn(thread)) return notice('Nothing is running in this conversation to pause.');
        try {
          const result = await client.call('chat.pause', { conversation_id: thread.conversationId });
          if (!result.turn_id) return notice('Nothing is running in this conversation to pause.');
          // The `paused` event may have arrived before this answer: never step back from it.
          // The `paused` event may have arrived before this answer: never step back from it. The banner in the
          // thread (display.ts) says the rest, and goes away with the state — no notice to outlive it.
          update((current) => (current.hold !== 'running' ? current : { ...current, hold: result.state }));
        } catch (error) {
          notice('Pausing the turn did not work.', toWireError(error));
        }
      },

      async resumeTurn() {
        const thread = get().thread;
        if (!thread) return notice('Open a conversation first.');
        try {
          const result = await client.call('chat.resume', { conversation_id: thread.conversationId });
          update((current) => (current.hold === result.state ? current : { ...current, hold: result.state }));
          if (!result.changed) notice('The turn was not paused.');
        } catch (error) {
          notice('Resuming the turn did not work.', toWireError(error));
        }
      },

      async answerApproval(approvalId, answer, scope) {
        const set_ = (change: (item: Item<'approval'>) => Item<'approval'>) => mapItems((item) => (item.kind === 'approval' && item.approvalId === approvalId ? change(item) : item));
        set_((item) => ({ ...item, state: 'answering', error: null }));
        try {
          await client.call('approvals.answer', { id: approvalId, answer, ...(answer === 'always' && scope !== undefined ? { scope } : {}) });
          set_((item) => (item.state === 'answering' ? { ...item, state: answer } : item));
        } catch (error) {
          set_((item) => ({ ...item, state: 'pending', error: toWireError(error) }));
        }
      },

      ...messageActions({ client, get, update, notice }),

      async answerDirectory(token, decision) {
        const set_ = (change: (item: Item<'directory'>) => Item<'directory'>) => mapItems((item) => (item.kind === 'directory' && item.token === token ? change(item) : item));
        const known = get().thread?.items.some((item) => item.kind === 'directory' && item.token === token);
        set_((item) => ({ ...item, state: 'answering', error: null }));
        try {
          const { outcome } = await client.call('directory_access.answer', { token, decision, conversation_id: get().thread?.conversationId });
          set_((item) => ({ ...item, state: outcome }));
          if (!known) notice(outcome === 'granted' ? `Folder request ${token} approved.` : outcome === 'denied' ? `Folder request ${token} denied.` : `Folder request ${token} had expired.`);
        } catch (error) {
          set_((item) => ({ ...item, state: 'pending', error: toWireError(error) }));
          if (!known) notice(`/${decision} ${token} did not work.`, toWireError(error));
        }
      },
    };
  });
}
