/**
 * What the loop needs from compaction, per model call: the live window of history (never the whole
 * conversation) and, on a context-overflow error, a re-compression before the request is re-issued.
 */
import type { FermixError } from '../../core/errors.js';
import type { StoredMessage } from '../../store/turns.js';
import type { ProviderHandle } from '../loop/model-call.js';

export interface TurnContext {
  /** `level` > 0 during overflow retries: older tool results are shortened even before a summary exists. */
  history(conversationId: string, level: number): StoredMessage[];
  /** Compacts with a smaller kept tail at each level (1..3); `cause` is the overflow error (it may state the real window). */
  recompress(conversationId: string, handle: ProviderHandle, level: number, signal: AbortSignal, cause: unknown): Promise<void>;
  overflowError(handle: ProviderHandle, cause: unknown): FermixError;
  maxRecompressions: number;
}
