import type { Locator, Page } from 'playwright-core';
import type { ToolResult } from '../core/capabilities/capability.js';
import { FermixError, isFermixError } from '../core/errors.js';
import type { BrowserSession } from './session.js';
import type { Supervisor } from './supervisor.js';

/** The arguments every action reads (already validated against the tool's schema at the boundary). */
export interface BrowserArgs {
  action: string;
  kind?: string;
  profile?: string;
  url?: string;
  path?: string;
  target?: string;
  selector?: string;
  ref?: string;
  text?: string;
  field?: string;
  value?: string;
  decision?: 'accept' | 'dismiss';
  x?: number;
  y?: number;
  button?: 'left' | 'right' | 'middle';
  key?: string;
  wait_until?: 'text' | 'url' | 'element' | 'load';
  full_page?: boolean;
  format?: 'png' | 'jpeg';
  quality?: number;
  interactive?: boolean;
  compact?: boolean;
  depth?: number;
  include_urls?: boolean;
  timeout_ms?: number;
}

/** Workspace access for download and upload: the sandbox's path policy, injected by the tool. */
export interface FileAccess {
  workspace: string;
  /** Canonical real path for reading, or throws sandbox_denied. */
  checkRead(path: string): string;
  checkWrite(path: string): string;
}

export interface ActionContext {
  args: BrowserArgs;
  profile: string;
  session: BrowserSession;
  supervisor: Supervisor;
  signal: AbortSignal;
  files?: FileAccess;
}

export type ActionHandler = (ctx: ActionContext) => Promise<ToolResult>;

export function missingArg(call: string, name: string, example: string): FermixError {
  return new FermixError({
    code: 'missing_action_arg',
    message: `browser ${call} needs \`${name}\`.`,
    hint: `Call it as ${example}.`,
    data: { call, field: name },
  });
}

export function requireArg<K extends keyof BrowserArgs>(args: BrowserArgs, name: K, call: string, example: string): NonNullable<BrowserArgs[K]> {
  const value = args[name];
  if (value === undefined || value === null || value === '') throw missingArg(call, String(name), example);
  return value as NonNullable<BrowserArgs[K]>;
}

/** The element an act kind works on: a ref from the latest snapshot, or a CSS selector. */
export function elementOf(page: Page, args: BrowserArgs, call: string): Locator {
  if (args.ref) return page.getByRef(args.ref);
  if (args.selector) return page.locator(args.selector).first();
  throw missingArg(call, 'ref', `{"action":"act","kind":"${args.kind ?? 'click'}","ref":"e12"} with a ref from the latest snapshot (or "selector")`);
}

export function staleRef(ref: string): FermixError {
  return new FermixError({
    code: 'invalid_action',
    message: `Ref ${ref} is not in the latest snapshot of this tab.`,
    hint: 'Call browser action=snapshot again and use a ref from that snapshot.',
    data: { ref },
  });
}

/** A ref that resolves to nothing fails at once, instead of after the 8 s action timeout. */
export async function assertRefExists(page: Page, args: BrowserArgs): Promise<void> {
  if (!args.ref) return;
  const count = await page.getByRef(args.ref).count().catch(() => 0);
  if (count === 0) throw staleRef(args.ref);
}

const TIMEOUT_NAME = 'TimeoutError';

/** Playwright's errors, as the tags the model can act on. */
export function toBrowserError(error: unknown, ctx: { call: string; ref?: string; url?: string; guardReason?: () => string | undefined }): FermixError {
  if (isFermixError(error)) return error;
  const message = String((error as Error)?.message ?? error);
  const first = message.split('\n')[0].slice(0, 300);
  if (/ERR_BLOCKED_BY_CLIENT/u.test(message)) {
    const reason = ctx.guardReason?.() ?? 'the browser policy refused it';
    return new FermixError({
      code: 'navigation_blocked',
      message: `The browser refused ${ctx.url ?? 'a request'}: ${reason}.`,
      hint: 'Use an http(s) page or about:blank; link-local and cloud-metadata addresses and the Fermix daemon\'s own port are never reachable from the browser.',
      data: { url: ctx.url, reason },
    });
  }
  if (/Target page, context or browser has been closed|Browser has been closed|browser has disconnected|Target closed/iu.test(message)) {
    return new FermixError({
      code: 'host_lost',
      message: `The browser went away during ${ctx.call}.`,
      hint: 'Call the browser again: the next call relaunches it (tabs are reopened blank).',
      data: { call: ctx.call },
      cause: error,
    });
  }
  if (ctx.ref && /aria-ref|not found|stale|No element/iu.test(message)) return staleRef(ctx.ref);
  if ((error as Error)?.name === TIMEOUT_NAME || /Timeout \d+ms exceeded/u.test(message)) {
    const hint = ctx.ref
      ? `The element may be hidden or covered: call browser action=snapshot, or action=screenshot to look, then act again (click_coords clicks by position).`
      : 'Check the page with browser action=screenshot, or pass a larger timeout_ms.';
    return new FermixError({ code: 'timeout', message: `browser ${ctx.call} timed out: ${first}.`, hint, data: { call: ctx.call }, cause: error });
  }
  return new FermixError({
    code: 'browser_action_failed',
    message: `browser ${ctx.call} failed: ${first}.`,
    hint: 'Call browser action=snapshot to see the page as it is now, then try again.',
    data: { call: ctx.call },
    cause: error,
  });
}

export function pageLine(id: string, page: Page, title: string): string {
  return `[${id}] ${title || '(untitled)'} — ${page.url()}`;
}

/** Resolves once the timeout passes (for races), never rejecting. */
export function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    }, { once: true });
  });
}
