import type { Page } from 'playwright-core';
import type { ToolResult } from '../core/capabilities/capability.js';
import { navigationBlocked } from './navigation-guard.js';
import { NAVIGATION_TIMEOUT_MS } from './session.js';
import { pageLine, requireArg, toBrowserError, type ActionContext, type ActionHandler } from './action-support.js';

/** Goes to a URL the guard accepts; a refused redirect or subrequest is reported with the guard's reason. */
export async function goto(ctx: ActionContext, page: Page, raw: string): Promise<void> {
  const url = await ctx.session.guard.assertNavigable(raw);
  let response;
  try {
    response = await page.goto(url, { waitUntil: 'load', timeout: Math.min(ctx.args.timeout_ms ?? NAVIGATION_TIMEOUT_MS, 120_000) });
  } catch (error) {
    throw toBrowserError(error, { call: 'navigate', url, guardReason: () => ctx.session.guard.lastFor(url)?.reason });
  }
  // A redirect onto a refused address ends at the guard proxy's refusal page: leave it, and say why.
  if (response?.headers()['x-fermix-blocked'] === '1') {
    const landed = page.url();
    await page.goto('about:blank').catch(() => undefined);
    throw navigationBlocked(landed, ctx.session.guard.lastFor(landed)?.reason ?? 'the browser policy refused it');
  }
}

async function describeTab(ctx: ActionContext, id: string, page: Page, verb: string): Promise<ToolResult> {
  const title = await page.title().catch(() => '');
  const evicted = ctx.session.takeEvicted();
  const note = evicted.length > 0 ? `\nClosed the oldest tab${evicted.length > 1 ? 's' : ''} ${evicted.join(', ')} (at most 10 tabs).` : '';
  ctx.supervisor.noteUrl(ctx.profile, page.url());
  return {
    text: `${verb} ${pageLine(id, page, title)}${note}\nNext: browser action=snapshot for element refs, or action=screenshot to see it.`,
    data: { target: id, url: page.url(), title, evicted },
  };
}

export const openTab: ActionHandler = async (ctx) => {
  const url = ctx.args.url ?? 'about:blank';
  // Checked before the tab exists, so a refused URL leaves no blank tab behind.
  await ctx.session.guard.assertNavigable(url);
  const { id, page } = await ctx.session.newTab();
  if (url !== 'about:blank') await goto(ctx, page, url);
  return describeTab(ctx, id, page, 'Opened');
};

export const navigate: ActionHandler = async (ctx) => {
  const url = requireArg(ctx.args, 'url', 'navigate', '{"action":"navigate","url":"https://example.com/"}');
  const { id, page } = await ctx.session.page(ctx.args.target);
  await goto(ctx, page, url);
  return describeTab(ctx, id, page, 'Now at');
};

export const listTabs: ActionHandler = async (ctx) => {
  const tabs = await ctx.session.list();
  const lines = tabs.map((tab) => `${tab.active ? '*' : ' '} [${tab.target}] ${tab.title || '(untitled)'} — ${tab.url}`);
  return { text: tabs.length === 0 ? 'No tabs are open.' : `${tabs.length} tab(s), * is active:\n${lines.join('\n')}`, data: { tabs } };
};

export const focusTab: ActionHandler = async (ctx) => {
  const target = requireArg(ctx.args, 'target', 'focus', '{"action":"focus","target":"t2"} with a target id from action=tabs');
  const page = ctx.session.focus(target);
  await page.bringToFront().catch(() => undefined);
  return describeTab(ctx, target, page, 'Focused');
};

export const closeTab: ActionHandler = async (ctx) => {
  const closed = await ctx.session.close(ctx.args.target);
  const active = ctx.session.activeId();
  return { text: `Closed tab ${closed}.${active ? ` Active tab is now ${active}.` : ' No tabs are open.'}`, data: { closed, active: active ?? null } };
};
