/**
 * The directory-approval loop behind request_directory_access (reference §2.3):
 * refuse unsafe roots before anyone is asked → "already allowed" when reachable → a single-use
 * token, bound to the conversation, owner-only, 60 s TTL → the owner answers `/confirm TOKEN` /
 * `/deny TOKEN` in chat (or the Approve/Deny card, which calls `answer`) → the grant is persisted
 * to `[sandbox] allowed_roots` with an atomic, validated config write → `onGranted` lets the
 * composition root swap in a sandbox with the new root, and the parked tool call resumes by itself.
 *
 * Only origin `chat` may answer: a command the sandbox runs could call `fermix ask "/confirm …"`
 * (origin `cli`) and approve its own request; the chat window's API is not reachable that way.
 */
import { randomInt } from 'node:crypto';
import path from 'node:path';
import { loadConfig, updateConfig } from '../config/config-file.js';
import type { FermixConfig } from '../config/schema.js';
import type { Origin, Trust } from '../core/capabilities/capability.js';
import { FermixError } from '../core/errors.js';
import type { PathPolicy } from './path-policy.js';
import { expandHome } from './real-path.js';

export const DIRECTORY_TOKEN_TTL_MS = 60_000;
const TOKEN_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'; // no 0/O, 1/I: people type these
const TOKEN_LENGTH = 8;
/** Origins where a person is at the conversation and can answer. */
const ATTENDED_ORIGINS: ReadonlySet<Origin> = new Set<Origin>(['chat', 'cli', 'voice']);

export interface DirectoryAccessRequest {
  path: string;
  reason: string;
  conversationId?: string;
  trust: Trust;
  origin: Origin;
  /** Relative paths resolve against this (the tool's working directory). */
  baseDir: string;
  signal?: AbortSignal;
}

export interface PendingDirectoryGrant {
  token: string;
  conversationId: string;
  /** Canonical (real) folder that would be granted. */
  path: string;
  reason: string;
  /** The config.toml change, as shown to the owner. */
  diff: string;
  /** Ready-to-post chat text: folder, reason, diff and the /confirm and /deny commands. */
  message: string;
  expiresAt: number;
}

export type DirectoryOutcome = 'granted' | 'denied' | 'expired';
export type AnswerDecision = 'confirm' | 'deny';

export interface DirectoryAccessOptions {
  /** The policy in effect now (the composition root swaps sandboxes after a config change). */
  policy: () => PathPolicy;
  configFile: string;
  /** The OS home folder, for `~/…` in a request. */
  home: string;
  /** Posts `pending.message` in the conversation and shows the Approve/Deny card. */
  prompt: (pending: PendingDirectoryGrant) => void | Promise<void>;
  /** After the grant is written: rebuild the sandbox from `config.sandbox` so the retry succeeds. */
  onGranted?: (root: string, config: FermixConfig) => void | Promise<void>;
  /** The card should go away (answered, expired, cancelled). */
  onSettled?: (token: string, outcome: DirectoryOutcome | 'cancelled') => void;
  ttlMs?: number;
  now?: () => number;
  newToken?: () => string;
}

export interface DirectoryAccess {
  /** Parks until the owner answers or the token expires. Throws not_attended, unsafe_root, already_allowed. */
  request(request: DirectoryAccessRequest): Promise<{ outcome: DirectoryOutcome; path: string }>;
  /** `/confirm` / `/deny` and the card. Throws unknown_token, not_owner, wrong_conversation, answer_refused. */
  answer(input: { token: string; decision: AnswerDecision; conversationId?: string; trust: Trust; origin: Origin }): Promise<DirectoryOutcome>;
  /** For the chat handler: `/confirm TOKEN` or `/deny TOKEN` → the reply to show; null for any other text. */
  handleChatCommand(text: string, from: { conversationId?: string; trust: Trust; origin: Origin }): Promise<string | null>;
  pending(conversationId?: string): PendingDirectoryGrant[];
}

interface Entry {
  pending: PendingDirectoryGrant;
  settle: (outcome: DirectoryOutcome | Error) => void;
}

const COMMAND = /^\s*\/(confirm|deny)\s+([A-Za-z0-9]{4,32})\s*$/i;

export function createDirectoryAccess(options: DirectoryAccessOptions): DirectoryAccess {
  const ttl = options.ttlMs ?? DIRECTORY_TOKEN_TTL_MS;
  const now = options.now ?? Date.now;
  const newToken = options.newToken ?? (() => Array.from({ length: TOKEN_LENGTH }, () => TOKEN_ALPHABET[randomInt(TOKEN_ALPHABET.length)]).join(''));
  const entries = new Map<string, Entry>();

  const request: DirectoryAccess['request'] = async (req) => {
    if (req.trust !== 'operator' || !ATTENDED_ORIGINS.has(req.origin) || req.conversationId === undefined) {
      throw new FermixError({
        code: 'not_attended',
        message: 'Nobody who can approve a folder grant is attending this run (guest, scheduled or delegated).',
        hint: 'Report that the folder is outside the sandbox; the owner can run `fermix grant path <dir>`.',
        data: { trust: req.trust, origin: req.origin },
      });
    }
    const policy = options.policy();
    const absolute = path.resolve(req.baseDir, expandHome(req.path.trim(), options.home));
    const grant = policy.checkGrant(absolute); // unsafe_root / sandbox_denied (blocked) before any prompt
    if (grant.alreadyAllowed) {
      throw new FermixError({
        code: 'already_allowed',
        message: `${grant.path} is already inside the sandbox roots.`,
        hint: 'Retry the operation; if it is still refused, the reason is a protected path or a blocked root (see `fermix sandbox explain PATH`).',
        data: { path: grant.path },
      });
    }
    const token = uniqueToken();
    const reason = clean(req.reason).slice(0, 500);
    const diff = configDiff(options.configFile, grant.path);
    const expiresAt = now() + ttl;
    const pending: PendingDirectoryGrant = {
      token,
      conversationId: req.conversationId,
      path: grant.path,
      reason,
      diff,
      expiresAt,
      message: [
        'Fermix asks for access to a folder outside the sandbox.',
        `Folder: ${grant.path}`,
        `Reason: ${reason}`,
        `Change to config.toml:\n${diff}`,
        `Reply /confirm ${token} to allow or /deny ${token} to refuse (expires in ${Math.round(ttl / 1000)} s).`,
      ].join('\n'),
    };
    return new Promise((resolve, reject) => {
      if (req.signal?.aborted) return reject(requestCancelled());
      const timer = setTimeout(() => finish('expired'), ttl);
      timer.unref();
      const onAbort = () => finish(requestCancelled());
      const finish = (outcome: DirectoryOutcome | Error) => {
        if (!entries.delete(token)) return;
        clearTimeout(timer);
        req.signal?.removeEventListener('abort', onAbort);
        options.onSettled?.(token, outcome instanceof Error ? 'cancelled' : outcome);
        if (outcome instanceof Error) reject(outcome);
        else resolve({ outcome, path: grant.path });
      };
      entries.set(token, { pending, settle: finish });
      req.signal?.addEventListener('abort', onAbort, { once: true });
      Promise.resolve(options.prompt(pending)).catch((error: unknown) => finish(error instanceof Error ? error : new Error(String(error))));
    });
  };

  const answer: DirectoryAccess['answer'] = async ({ token, decision, conversationId, trust, origin }) => {
    const entry = entries.get(token.toUpperCase());
    if (entry === undefined || now() > entry.pending.expiresAt) {
      throw answerError('unknown_token', `No pending folder request has token ${token}: it expired or was already answered.`, 'Ask the agent to request access again.');
    }
    if (trust !== 'operator') throw answerError('not_owner', 'Only the owner can answer a folder request.', 'Answer from the owner\'s chat.');
    if (origin !== 'chat') {
      throw answerError('answer_refused', `Folder requests are answered in the chat window, not from ${origin}.`, 'Use /confirm or the Approve button in the Fermix chat, or run `fermix grant path <dir>` yourself.');
    }
    if (conversationId !== entry.pending.conversationId) {
      throw answerError('wrong_conversation', `Token ${token} belongs to another conversation.`, 'Answer in the conversation that asked.');
    }
    if (decision === 'deny') {
      entry.settle('denied');
      return 'denied';
    }
    try {
      const config = persistGrant(options.configFile, entry.pending.path);
      await options.onGranted?.(entry.pending.path, config);
    } catch (error) {
      entry.settle(error instanceof Error ? error : new Error(String(error)));
      throw error;
    }
    entry.settle('granted');
    return 'granted';
  };

  const handleChatCommand: DirectoryAccess['handleChatCommand'] = async (text, from) => {
    const match = COMMAND.exec(text);
    if (match === null) return null;
    const decision = match[1].toLowerCase() as AnswerDecision;
    const token = match[2].toUpperCase();
    const folder = entries.get(token)?.pending.path;
    try {
      const outcome = await answer({ token, decision, ...from });
      return outcome === 'granted' ? `Granted: ${folder} was added to [sandbox] allowed_roots.` : `Denied: ${folder} stays outside the sandbox.`;
    } catch (error) {
      return error instanceof FermixError ? `${error.message} ${error.hint}`.trim() : 'The answer could not be applied; see `fermix logs`.';
    }
  };

  const uniqueToken = (): string => {
    for (;;) {
      const token = newToken().toUpperCase();
      if (!entries.has(token)) return token;
    }
  };

  return {
    request,
    answer,
    handleChatCommand,
    pending: (conversationId) => [...entries.values()].map((e) => e.pending).filter((p) => conversationId === undefined || p.conversationId === conversationId),
  };
}

/** Adds the root to `[sandbox] allowed_roots` (atomic, validated write); a root already listed is not repeated. */
export function persistGrant(configFile: string, root: string): FermixConfig {
  return updateConfig(configFile, (raw) => {
    const sandbox = (raw.sandbox ??= {}) as Record<string, unknown>;
    const roots = Array.isArray(sandbox.allowed_roots) ? (sandbox.allowed_roots as unknown[]).map(String) : [];
    if (!roots.includes(root)) roots.push(root);
    sandbox.allowed_roots = roots;
  });
}

/** The change the owner approves, shown as two lines of TOML. */
export function configDiff(configFile: string, root: string): string {
  let current: string[] = [];
  try {
    current = loadConfig(configFile).config.sandbox.allowed_roots;
  } catch {
    current = []; // an invalid config is reported when the grant is written, not here
  }
  const show = (list: string[]) => `allowed_roots = [${list.map((r) => JSON.stringify(r)).join(', ')}]`;
  return `[sandbox]\n- ${show(current)}\n+ ${show([...current, root])}`;
}

function answerError(code: string, message: string, hint: string): FermixError {
  return new FermixError({ code, message, hint });
}

/** Control characters would let a reason forge extra lines (a fake "/confirm" prompt) in the chat. */
function clean(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ').trim();
}

function requestCancelled(): FermixError {
  return new FermixError({ code: 'cancelled', message: 'The directory request was cancelled.', hint: 'Nothing was granted. Ask again if the folder is still needed.' });
}
