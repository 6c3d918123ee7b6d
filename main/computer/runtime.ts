/**
 * computer_use's runtime: who may act (attended origin, operator, enabled), when (pause barrier, seat,
 * courtesy), how much (80-action budget) and how long (30 s per action); the actions themselves are
 * actions.ts. One runtime per daemon, one desktop: actions run one at a time.
 */
import type { ExecutionContext, ToolResult } from '../core/capabilities/capability.js';
import { FermixError } from '../core/errors.js';
import { COMPUTER_DISTURBING_ACTIONS, COMPUTER_MUTATING_ACTIONS, computerUseInput } from '../tools/computer-use.js';
import { performAction, type ComputerArgs } from './actions.js';
import type { TrackedBackend } from './backend.js';
import { awaitPersonIdle, type IdleProbe, type UnavailableIdle } from './idle.js';
import { checkRegion, frameFingerprint, takeShot, waitForSettle, type Shot } from './screen.js';

/** Reference §6 "Computer use" numbers. */
export const COMPUTER_LIMITS = {
  maxActions: 80,
  keptScreenshots: 3,
  courtesyIdleMs: 1000,
  courtesyWaitMs: 3000,
  seatHoldMs: 60_000,
  unchangedWarningAfter: 3,
  actionDeadlineMs: 30_000,
} as const;

export interface ComputerUseRuntimeOptions {
  backend: TrackedBackend;
  idle: IdleProbe | UnavailableIdle;
  /** The daemon's one pause switch (main/daemon/computer-handlers.ts). */
  control: { readonly paused: boolean };
  /** `[fermix_core.computer_use] enabled`, read live. */
  enabled: () => boolean;
  /** `[sandbox] mode`, read live: strict is look-only. */
  accessMode: () => 'strict' | 'standard' | 'open';
  limits?: { [K in keyof typeof COMPUTER_LIMITS]?: number };
  now?: () => number;
}

interface Session {
  conversation: string;
  actions: number;
  halted: boolean;
  shots: Shot[];
  unchanged: number;
  lastActionAt: number;
  idleNoticeGiven: boolean;
}

export interface ComputerUseRuntime {
  execute(args: Record<string, unknown>, context: ExecutionContext): Promise<ToolResult>;
  /** A turn ended (/stop or done): let go of held keys and buttons and forget the session. */
  endSession(conversationId: string): Promise<void>;
  /** For status and doctor: whether the person's idle time can be read. */
  idleDetection(): { available: boolean; detail: string };
  session(conversationId: string): { actions: number; halted: boolean } | undefined;
  /** Whether an action is running now (for the tray and the window: "acting now"). */
  acting(): boolean;
  /** Called when an action starts and when it ends; returns the unsubscribe. */
  onActivity(listener: (acting: boolean) => void): () => void;
}

/** How long a timed-out action gets to reach its next step() before held input is released anyway. */
const RELEASE_GRACE_MS = 2000;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

const refuse = (code: string, message: string, hint: string, data?: Record<string, unknown>) => new FermixError({ code, message, hint, data });

/** Interactive chat, the voice app, or `fermix ask` on a terminal; cron, spawned and inbound-MCP callers are not. */
export function attendedOrigin(context: Pick<ExecutionContext, 'origin' | 'interactive'>): boolean {
  if (context.origin === 'chat' || context.origin === 'voice') return context.interactive !== false;
  if (context.origin === 'cli') return context.interactive === true;
  return false;
}

export function createComputerUseRuntime(options: ComputerUseRuntimeOptions): ComputerUseRuntime {
  const limits = { ...COMPUTER_LIMITS, ...options.limits };
  const now = options.now ?? Date.now;
  const { backend, control } = options;
  const sessions = new Map<string, Session>();
  let seat: { conversation: string; lastActionAt: number } | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  let acting = false;
  const activityListeners = new Set<(acting: boolean) => void>();
  const setActing = (next: boolean) => {
    acting = next;
    for (const listener of activityListeners) listener(next);
  };

  const idle = options.idle;
  const idleDetection = () =>
    'reason' in idle
      ? { available: false, detail: `idle detection unavailable (${idle.reason}); the agent acts without waiting for you to pause` }
      : { available: true, detail: `idle time from ${idle.source}` };

  const pausedError = () => refuse('paused', 'Computer use is paused, so this action did not run.', 'Type /resume in the chat (or choose Resume computer use in the tray) to let the agent act again.');

  function gate(args: ComputerArgs, context: ExecutionContext): Session {
    if (!options.enabled()) throw refuse('not active', 'Computer use is not enabled.', 'Set `[fermix_core.computer_use] enabled = true` in config.toml and restart the daemon.');
    if (context.trust !== 'operator') throw refuse('not active', 'Computer use is for the operator only.', 'Ask from the chat window or `fermix ask` on your own terminal.');
    if (!attendedOrigin(context)) {
      throw refuse('not active', `Computer use starts only when a person is at the keyboard; this call came from ${context.origin}${context.interactive === false ? ' without a terminal' : ''}.`, 'Ask for it from the chat window, `fermix ask` on a terminal, or voice; scheduled jobs, subagents and MCP clients cannot drive the desktop.', { origin: context.origin });
    }
    if (control.paused) throw pausedError();
    const mutating = (COMPUTER_MUTATING_ACTIONS as readonly string[]).includes(args.action);
    if (mutating && options.accessMode() === 'strict') {
      throw refuse('refused (strict access)', `The sandbox mode is strict, so computer use is look-only and ${args.action} was not performed.`, 'Switch [sandbox] mode to "standard" in Settings › Sandbox (or config.toml) to let the agent act.', { action: args.action });
    }
    const key = context.conversationId ?? `${context.origin}:default`;
    let session = sessions.get(key);
    if (!session) {
      session = { conversation: key, actions: 0, halted: false, shots: [], unchanged: 0, lastActionAt: 0, idleNoticeGiven: false };
      sessions.set(key, session);
    }
    if (session.halted || session.actions >= limits.maxActions) {
      session.halted = true;
      if (seat?.conversation === key) seat = undefined;
      throw refuse('action_budget_exhausted', `This computer-use session used its ${limits.maxActions} actions and was halted.`, 'Check the result with the person; a new turn in the chat starts a new session.', { max_actions: limits.maxActions });
    }
    if (COMPUTER_DISTURBING_ACTIONS.has(args.action) && seat && seat.conversation !== key && now() - seat.lastActionAt < limits.seatHoldMs) {
      throw refuse('busy', 'Another conversation is driving the desktop right now.', `Wait until it finishes (its hold lapses ${Math.round(limits.seatHoldMs / 1000)} s after its last action), or /stop that conversation.`);
    }
    return session;
  }

  async function run(args: ComputerArgs, context: ExecutionContext): Promise<ToolResult> {
    const session = gate(args, context);
    setActing(true);
    try {
      return await perform(args, context, session);
    } finally {
      setActing(false);
    }
  }

  async function perform(args: ComputerArgs, context: ExecutionContext, session: Session): Promise<ToolResult> {
    const disturbing = COMPUTER_DISTURBING_ACTIONS.has(args.action);
    const notes: string[] = [];
    if (disturbing) {
      const courtesy = await awaitPersonIdle({
        probe: options.idle,
        lastOwnInputAt: () => backend.lastInputAt(),
        idleMs: limits.courtesyIdleMs,
        maxWaitMs: limits.courtesyWaitMs,
        interrupted: () => control.paused || context.signal.aborted,
      });
      if (courtesy.outcome === 'interrupted' || control.paused) throw control.paused ? pausedError() : refuse('not active', 'The turn was stopped before the action ran.', '');
      if (courtesy.outcome === 'active') {
        throw refuse('user_active', `You were using the computer, so the agent stepped aside and did not ${args.action.replace(/_/g, ' ')}.`, 'The agent may try again once you leave mouse and keyboard alone for a second; type /pause in the chat to keep it off the desktop.', { waited_ms: courtesy.waitedMs });
      }
      if (courtesy.outcome === 'unknown' && !session.idleNoticeGiven) {
        session.idleNoticeGiven = true;
        notes.push(`Note: ${idleDetection().detail}.`);
      }
    }
    session.actions += 1;
    session.lastActionAt = now();
    if (disturbing) seat = { conversation: session.conversation, lastActionAt: now() };

    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), limits.actionDeadlineMs);
    const step = () => {
      if (control.paused) throw pausedError();
      if (context.signal.aborted) throw refuse('not active', 'The turn was stopped, so the action was cut short and held keys were released.', '');
      if (deadline.signal.aborted) throw refuse('action_timeout', `${args.action} did not finish within ${limits.actionDeadlineMs / 1000} s; held keys and buttons were released.`, 'Take a screenshot to see where it stopped, then try a smaller step.');
    };
    let action: Promise<unknown> = Promise.resolve();
    try {
      const before = (COMPUTER_MUTATING_ACTIONS as readonly string[]).includes(args.action) ? await frameFingerprint(backend) : undefined;
      const performing = performAction(args, { backend, step, latestShot: session.shots.at(-1), now });
      action = performing;
      const outcome = await Promise.race([
        performing,
        new Promise<never>((_, reject) => {
          const late = () => reject(refuse('action_timeout', `${args.action} did not finish within ${limits.actionDeadlineMs / 1000} s; held keys and buttons were released.`, 'Take a screenshot to see where it stopped, then try a smaller step.'));
          if (deadline.signal.aborted) late();
          else deadline.signal.addEventListener('abort', late);
        }),
      ]);
      let shot = outcome.shot;
      const data: Record<string, unknown> = { action: args.action, ...outcome.data, actions_used: session.actions, actions_left: limits.maxActions - session.actions };
      if (before !== undefined) {
        await waitForSettle(backend);
        // The check screenshot shows the same view the model acted on (its region, or the whole screen).
        shot = await takeShot(backend, checkRegion(args.region, await backend.screenSize()), now());
        session.unchanged = shot.fingerprint === before ? session.unchanged + 1 : 0;
        if (session.unchanged >= limits.unchangedWarningAfter) {
          data.warning = 'unchanged_view';
          notes.push(`Warning [unchanged_view]: the last ${session.unchanged} actions changed nothing on screen. Check the target before acting again: is the right window focused, is the point on the control, is Accessibility granted?`);
        }
      }
      if (shot) {
        session.shots.push(shot);
        if (session.shots.length > limits.keptScreenshots) session.shots.splice(0, session.shots.length - limits.keptScreenshots);
        data.screenshot = { width: shot.width, height: shot.height };
      }
      const text = [`${outcome.summary}.${shot && before !== undefined ? ` Screenshot after the view settled: ${shot.width}×${shot.height}.` : ''}`, ...notes].join(' ');
      return { text, data, ...(shot ? { images: [{ mimeType: 'image/png', base64: shot.base64 }] } : {}), audit: { action: args.action } };
    } finally {
      clearTimeout(timer);
      // Past the deadline the action may still be between two primitives: give it until its next step()
      // (which throws) before letting go, so nothing it presses after the release stays held.
      await Promise.race([action.catch(() => undefined), sleep(RELEASE_GRACE_MS)]);
      await backend.releaseAll();
    }
  }

  return {
    execute(rawArgs, context) {
      const args = computerUseInput().parse(rawArgs);
      // One desktop: actions from parallel calls run one after another.
      const next = queue.then(() => run(args, context));
      queue = next.catch(() => undefined);
      return next;
    },
    async endSession(conversationId) {
      await queue;
      await backend.releaseAll();
      sessions.delete(conversationId);
      if (seat?.conversation === conversationId) seat = undefined;
    },
    idleDetection,
    acting: () => acting,
    onActivity(listener) {
      activityListeners.add(listener);
      return () => activityListeners.delete(listener);
    },
    session(conversationId) {
      const session = sessions.get(conversationId);
      return session ? { actions: session.actions, halted: session.halted } : undefined;
    },
  };
}
