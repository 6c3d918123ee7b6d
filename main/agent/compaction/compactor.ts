/**
 * Keeps a conversation inside the model's context window (reference §2.7 and §6):
 * - auto-compaction when the next request would pass `threshold` (0.85) of the window: before a turn's
 *   first model call (a conversation that grew elsewhere) and after the reply;
 * - `/compact` (chat.compact) forces it;
 * - on a context-overflow error the loop re-compresses (a smaller tail each time) and re-issues the
 *   request, at most 3 times, then fails naming /compact and the window.
 * The window comes from `[providers.<name>] context_window` when set, else from the model's known limits.
 */
import type { FermixConfig } from '../../config/schema.js';
import { FermixError } from '../../core/errors.js';
import type { CompactionReason, CompactionRow, CompactionStore } from '../../store/compactions.js';
import type { StoredMessage } from '../../store/turns.js';
import type { ProviderHandle } from '../loop/model-call.js';
import { DEFAULT_CONTEXT_WINDOW, knownContextWindow } from '../providers/model-capabilities.js';
import { summarize } from './summarize.js';
import { estimateTokens, historyTokens } from './tokens.js';
import { chooseCut, shortenOlderToolResults, summaryMessage, windowHistory } from './window.js';

export const MAX_RECOMPRESSIONS = 3;
/** Share of the window the newest messages may keep, raw, after a compaction (halved on each overflow retry). */
const KEEP_SHARE = 0.3;

export interface CompactOptions {
  reason: CompactionReason;
  /** Overflow retries: 1, 2, 3 keep ever smaller tails. */
  level?: number;
  signal: AbortSignal;
}

export function contextWindowOf(config: FermixConfig, provider: { name: string; model: string }): number {
  return config.providers[provider.name]?.context_window ?? knownContextWindow(provider.model) ?? DEFAULT_CONTEXT_WINDOW;
}

type AdvertisedTool = { name: string; description: string; parameters: unknown };
/** Per advertised list (the request builder keeps one per registry version): serialising every schema twice a turn was garbage. */
const toolTokens = new WeakMap<readonly AdvertisedTool[], number>();

/** The request's fixed part: the system prompt and the advertised tool schemas. */
export function overheadTokens(system: string, tools: readonly AdvertisedTool[]): number {
  let schemas = toolTokens.get(tools);
  if (schemas === undefined) {
    schemas = estimateTokens(JSON.stringify(tools.map((tool) => ({ name: tool.name, description: tool.description, parameters: tool.parameters }))));
    toolTokens.set(tools, schemas);
  }
  return estimateTokens(system) + schemas;
}

export function createCompactor(options: { store: CompactionStore; config: () => FermixConfig }) {
  const { store } = options;
  /**
   * provider|model → the window a vendor stated in an overflow error, when smaller than what we
   * believed: later thresholds and retries use it (until the daemon restarts or the config changes it).
   */
  const stated = new Map<string, number>();
  const windowOf = (provider: { name: string; model: string }) => {
    const believed = contextWindowOf(options.config(), provider);
    return Math.min(believed, stated.get(`${provider.name}|${provider.model}`) ?? believed);
  };

  function history(conversationId: string, level = 0): StoredMessage[] {
    const live = store.window(conversationId);
    return windowHistory(live.summary, live.messages, level > 0);
  }

  return {
    history,
    windowOf: (handle: ProviderHandle) => windowOf(handle.provider),
    /** Remembers the window an overflow error stated (data.context_window). */
    learnWindow(handle: ProviderHandle, cause: unknown): void {
      const value = Number((cause as { data?: { context_window?: unknown } })?.data?.context_window);
      if (Number.isFinite(value) && value > 0) stated.set(`${handle.provider.name}|${handle.provider.model}`, value);
    },
    /** Estimated tokens of the next request's history (the live window as the model would get it). */
    historyTokens: (conversationId: string) => historyTokens(history(conversationId)),
    /** True when auto-compaction is on and the next request would pass the threshold. */
    shouldCompact(conversationId: string, handle: ProviderHandle, overhead: number): boolean {
      const settings = options.config().fermix_core.compaction;
      if (!settings.enabled) return false;
      const limit = settings.threshold * windowOf(handle.provider);
      return overhead + historyTokens(history(conversationId)) > limit;
    },
    /** Summarizes everything before the kept tail. Null when there is nothing to replace. */
    async compact(conversationId: string, handle: ProviderHandle, compactOptions: CompactOptions): Promise<CompactionRow | null> {
      const windowTokens = windowOf(handle.provider);
      const live = store.window(conversationId);
      // The tail is measured as it will be sent: older tool results shortened.
      const shaped = shortenOlderToolResults(live.messages);
      const before = historyTokens(windowHistory(live.summary, live.messages));
      let keep = Math.floor((windowTokens * KEEP_SHARE) / 2 ** (compactOptions.level ?? 0));
      // /compact on a conversation that fits: it still halves what is sent.
      if (compactOptions.reason === 'manual') keep = Math.min(keep, Math.floor(historyTokens(shaped) / 2));
      const cut = chooseCut(shaped, keep);
      if (cut === 0) return null;
      const replaced = live.messages.slice(0, cut);
      const summary = await summarize({ handle, windowTokens, previous: live.summary?.summary ?? null, messages: replaced.map(({ id: _id, ...message }) => message as StoredMessage), signal: compactOptions.signal });
      const after = historyTokens([summaryMessage({ summary: summary.text }), ...shaped.slice(cut)]);
      return store.add({
        conversation_id: conversationId,
        through_message_id: replaced[replaced.length - 1].id,
        summary: summary.text,
        reason: compactOptions.reason,
        replaced_messages: replaced.length + (live.summary?.replaced_messages ?? 0),
        tokens_before: before,
        tokens_after: after,
        provider: handle.provider.name,
        model: handle.provider.model,
      });
    },
    /** The turn's error after 3 re-compressions did not make the request fit. */
    overflowError(handle: ProviderHandle, cause: unknown): FermixError {
      const windowTokens = windowOf(handle.provider);
      return new FermixError({
        code: 'context_overflow',
        message: `The request still does not fit ${handle.provider.name} (${handle.provider.model})'s context window of ${windowTokens.toLocaleString('en-US')} tokens after compacting the conversation ${MAX_RECOMPRESSIONS} times.`,
        hint: `Type /compact in the chat window (or call chat.compact) and send the message again, start a new conversation with /new, or set context_window in [providers.${handle.provider.name}] to the model's real window.`,
        data: { provider: handle.provider.name, context_window: windowTokens, attempts: MAX_RECOMPRESSIONS },
        cause,
      });
    },
  };
}

export type Compactor = ReturnType<typeof createCompactor>;
