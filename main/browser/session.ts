import type { BrowserContext, Dialog, Page } from 'playwright-core';
import { FermixError } from '../core/errors.js';
import type { NavigationGuard } from './navigation-guard.js';

/** Reference §2.12 bounds. */
export const MAX_TABS = 10;
export const ACTION_TIMEOUT_MS = 8_000;
export const NAVIGATION_TIMEOUT_MS = 30_000;
const CONSOLE_BUFFER = 100;
const DIALOG_BUFFER = 10;

export interface ConsoleEntry {
  tab: string;
  type: string;
  text: string;
  at: string;
}

export interface DialogEntry {
  tab: string;
  type: string;
  message: string;
  default_value: string;
  at: string;
  answered?: 'accept' | 'dismiss';
}

export interface TabInfo {
  target: string;
  url: string;
  title: string;
  active: boolean;
}

/**
 * One live profile: its context, its tabs (our own short ids, in opening order), and the console and
 * dialog buffers the `console` and `dialog` actions read. Tabs opened by the page itself (target=_blank,
 * window.open) join the list and count against the cap like ours.
 */
export function createSession(options: { name: string; context: BrowserContext; guard: NavigationGuard; headless: boolean; maxTabs?: number }) {
  const { context, guard } = options;
  const maxTabs = options.maxTabs ?? MAX_TABS;
  const tabs = new Map<string, Page>();
  let active: string | undefined;
  let counter = 0;
  const consoleEntries: ConsoleEntry[] = [];
  const dialogs: DialogEntry[] = [];
  let pendingDialog: { dialog: Dialog; entry: DialogEntry } | undefined;
  /** Set by action=dialog ahead of time: how to answer the next dialog. */
  let armed: { decision: 'accept' | 'dismiss'; text?: string } | undefined;
  const evicted: string[] = [];

  const idOf = (page: Page) => [...tabs].find(([, candidate]) => candidate === page)?.[0];

  function push<T>(buffer: T[], entry: T, cap: number) {
    buffer.push(entry);
    if (buffer.length > cap) buffer.shift();
  }

  async function answer(dialog: Dialog, entry: DialogEntry, decision: 'accept' | 'dismiss', text?: string) {
    entry.answered = decision;
    if (decision === 'accept') await dialog.accept(text).catch(() => undefined);
    else await dialog.dismiss().catch(() => undefined);
  }

  function register(page: Page): string {
    const existing = idOf(page);
    if (existing) return existing;
    counter += 1;
    const id = `t${counter}`;
    tabs.set(id, page);
    page.on('close', () => {
      tabs.delete(id);
      if (active === id) active = [...tabs.keys()].at(-1);
    });
    page.on('console', (message) => push(consoleEntries, { tab: id, type: message.type(), text: message.text().slice(0, 2000), at: new Date().toISOString() }, CONSOLE_BUFFER));
    page.on('pageerror', (error) => push(consoleEntries, { tab: id, type: 'pageerror', text: String(error.message).slice(0, 2000), at: new Date().toISOString() }, CONSOLE_BUFFER));
    page.on('dialog', (dialog) => {
      const entry: DialogEntry = { tab: id, type: dialog.type(), message: dialog.message().slice(0, 2000), default_value: dialog.defaultValue(), at: new Date().toISOString() };
      push(dialogs, entry, DIALOG_BUFFER);
      if (armed) {
        const { decision, text } = armed;
        armed = undefined;
        void answer(dialog, entry, decision, text);
        return;
      }
      // Left open for action=dialog; a second dialog cannot appear while this one blocks the page.
      pendingDialog = { dialog, entry };
    });
    page.setDefaultTimeout(ACTION_TIMEOUT_MS);
    page.setDefaultNavigationTimeout(NAVIGATION_TIMEOUT_MS);
    return id;
  }

  /** The cap: before a new tab joins, the oldest tab that is not the active one is closed. */
  async function makeRoom(keep?: Page) {
    while (tabs.size >= maxTabs) {
      const victim = [...tabs].find(([id, page]) => id !== active && page !== keep);
      if (!victim) return;
      tabs.delete(victim[0]);
      evicted.push(victim[0]);
      await victim[1].close().catch(() => undefined);
    }
  }

  context.on('page', (page) => {
    if (idOf(page)) return;
    // A popup opened by the page: room is made for it after the fact (the oldest non-active tab goes).
    void (async () => {
      const id = register(page);
      while (tabs.size > maxTabs) {
        const victim = [...tabs].find(([other]) => other !== active && other !== id);
        if (!victim) break;
        tabs.delete(victim[0]);
        evicted.push(victim[0]);
        await victim[1].close().catch(() => undefined);
      }
    })();
  });
  for (const page of context.pages()) register(page);
  active = [...tabs.keys()].at(-1);

  function unknownTarget(target: string): FermixError {
    return new FermixError({
      code: 'invalid_action',
      message: `No open tab has target id ${target}.`,
      hint: 'Call browser action=tabs to list the open tabs and their target ids.',
      data: { target, open: [...tabs.keys()] },
    });
  }

  return {
    name: options.name,
    context,
    guard,
    headless: options.headless,
    consoleEntries,
    dialogs,
    /** Tab ids closed by the cap since the last call that reported them. */
    takeEvicted(): string[] {
      return evicted.splice(0, evicted.length);
    },
    activeId: () => active,
    /** The tab a call works on: `target` when given, else the active one (a blank tab is opened if none). */
    async page(target?: string): Promise<{ id: string; page: Page }> {
      if (target !== undefined) {
        const page = tabs.get(target);
        if (!page) throw unknownTarget(target);
        return { id: target, page };
      }
      if (active && tabs.has(active)) return { id: active, page: tabs.get(active)! };
      return this.newTab();
    },
    async newTab(): Promise<{ id: string; page: Page }> {
      await makeRoom();
      const page = await context.newPage();
      const id = register(page);
      active = id;
      return { id, page };
    },
    focus(target: string): Page {
      const page = tabs.get(target);
      if (!page) throw unknownTarget(target);
      active = target;
      return page;
    },
    async close(target?: string): Promise<string> {
      const id = target ?? active;
      if (id === undefined || !tabs.has(id)) throw unknownTarget(target ?? '(none)');
      const page = tabs.get(id)!;
      tabs.delete(id);
      if (active === id) active = [...tabs.keys()].at(-1);
      await page.close().catch(() => undefined);
      return id;
    },
    async list(): Promise<TabInfo[]> {
      const rows: TabInfo[] = [];
      for (const [id, page] of tabs) rows.push({ target: id, url: page.url(), title: await page.title().catch(() => ''), active: id === active });
      return rows;
    },
    /** Answers the open dialog, or arms the answer for the next one. */
    async dialog(decision: 'accept' | 'dismiss', text?: string): Promise<{ answered?: DialogEntry; armed: boolean }> {
      if (pendingDialog) {
        const { dialog, entry } = pendingDialog;
        pendingDialog = undefined;
        await answer(dialog, entry, decision, text);
        return { answered: entry, armed: false };
      }
      armed = { decision, text };
      return { armed: true };
    },
    pendingDialog: () => pendingDialog?.entry,
  };
}


export type BrowserSession = ReturnType<typeof createSession>;
