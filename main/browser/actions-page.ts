import type { Page } from 'playwright-core';
import { FermixError } from '../core/errors.js';
import { takeSnapshot } from './snapshot.js';
import { requireArg, toBrowserError, type ActionHandler } from './action-support.js';

/** Reference §2.12: screenshots at most 4,000 px a side and 8,000,000 bytes. */
export const SCREENSHOT_MAX_SIDE = 4_000;
export const SCREENSHOT_MAX_BYTES = 8_000_000;

export const snapshot: ActionHandler = async (ctx) => {
  const { id, page } = await ctx.session.page(ctx.args.target);
  const depth = Math.min(Math.max(ctx.args.depth ?? 5, 1), 20);
  try {
    const result = await takeSnapshot(page, { interactive: ctx.args.interactive ?? true, compact: ctx.args.compact ?? true, depth, includeUrls: ctx.args.include_urls ?? false });
    const title = await page.title().catch(() => '');
    const header = `[${id}] ${title || '(untitled)'} — ${page.url()} (depth ${depth}; refs are valid until the next snapshot of this tab)`;
    return { text: `${header}\n${result.text || '(nothing to show: try interactive=false)'}`, data: { target: id, url: page.url(), title, refs: result.refs, truncated: result.truncated } };
  } catch (error) {
    throw toBrowserError(error, { call: 'snapshot' });
  }
};

async function capture(page: Page, format: 'png' | 'jpeg', quality: number | undefined, fullPage: boolean): Promise<{ bytes: Buffer; clipped: boolean }> {
  const size = await page.evaluate(() => {
    const root = (globalThis as any).document.documentElement;
    return { width: root.scrollWidth as number, height: root.scrollHeight as number };
  });
  const viewport = page.viewportSize() ?? { width: 1280, height: 800 };
  const width = fullPage ? size.width : viewport.width;
  const height = fullPage ? size.height : viewport.height;
  const clipped = width > SCREENSHOT_MAX_SIDE || height > SCREENSHOT_MAX_SIDE;
  const clip = clipped ? { x: 0, y: 0, width: Math.min(width, SCREENSHOT_MAX_SIDE), height: Math.min(height, SCREENSHOT_MAX_SIDE) } : undefined;
  const bytes = await page.screenshot({ type: format, quality: format === 'jpeg' ? (quality ?? 80) : undefined, fullPage, clip });
  return { bytes, clipped };
}

export const screenshot: ActionHandler = async (ctx) => {
  const { id, page } = await ctx.session.page(ctx.args.target);
  let format = ctx.args.format ?? 'png';
  try {
    let shot = await capture(page, format, ctx.args.quality, ctx.args.full_page ?? false);
    // Too large as asked: fall back to smaller JPEGs before refusing (a photo-heavy full page PNG can be huge).
    for (const quality of [70, 40]) {
      if (shot.bytes.length <= SCREENSHOT_MAX_BYTES) break;
      format = 'jpeg';
      shot = await capture(page, 'jpeg', quality, ctx.args.full_page ?? false);
    }
    if (shot.bytes.length > SCREENSHOT_MAX_BYTES) {
      throw new FermixError({ code: 'browser_action_failed', message: `The screenshot is ${shot.bytes.length} bytes, over the ${SCREENSHOT_MAX_BYTES}-byte cap.`, hint: 'Take it without full_page=true, or scroll to the part you need first.', data: { bytes: shot.bytes.length } });
    }
    const mimeType = format === 'png' ? 'image/png' : 'image/jpeg';
    const note = shot.clipped ? ` (cut to ${SCREENSHOT_MAX_SIDE} px a side)` : '';
    return {
      text: `Screenshot of [${id}] ${page.url()}: ${mimeType}, ${shot.bytes.length} bytes${note}. Coordinates in it are CSS pixels for act kind=click_coords.`,
      images: [{ mimeType, base64: shot.bytes.toString('base64') }],
      data: { target: id, url: page.url(), bytes: shot.bytes.length, mime_type: mimeType, clipped: shot.clipped },
    };
  } catch (error) {
    throw toBrowserError(error, { call: 'screenshot' });
  }
};

export const consoleLog: ActionHandler = async (ctx) => {
  const tab = ctx.args.target;
  const entries = ctx.session.consoleEntries.filter((entry) => tab === undefined || entry.tab === tab);
  const lines = entries.map((entry) => `[${entry.tab}] ${entry.type}: ${entry.text}`);
  return { text: entries.length === 0 ? 'No console messages yet.' : `${entries.length} console message(s), oldest first (last 100 kept):\n${lines.join('\n')}`, data: { entries } };
};

export const dialog: ActionHandler = async (ctx) => {
  const decision = requireArg(ctx.args, 'decision', 'dialog', '{"action":"dialog","decision":"accept"} (text answers a prompt)');
  const result = await ctx.session.dialog(decision, ctx.args.text);
  const recent = ctx.session.dialogs.map((entry) => `[${entry.tab}] ${entry.type}: ${entry.message}${entry.answered ? ` (${entry.answered}ed)` : ''}`);
  const head = result.answered
    ? `Answered the ${result.answered.type} "${result.answered.message}" with ${decision}.`
    : `No dialog is open; the next one will be answered with ${decision}.`;
  return { text: `${head}${recent.length ? `\nRecent dialogs:\n${recent.join('\n')}` : ''}`, data: { answered: result.answered ?? null, armed: result.armed } };
};

export const cookies: ActionHandler = async (ctx) => {
  const { page } = await ctx.session.page(ctx.args.target);
  const url = page.url();
  if (ctx.args.field && ctx.args.value !== undefined) {
    if (!/^https?:/u.test(url)) throw new FermixError({ code: 'missing_action_arg', message: 'Cookies can be set only on an http(s) page.', hint: 'Call browser action=navigate with the site first, then set the cookie.' });
    await ctx.session.context.addCookies([{ name: ctx.args.field, value: ctx.args.value, url }]);
    return { text: `Set cookie ${ctx.args.field} for ${new URL(url).origin}.`, data: { name: ctx.args.field } };
  }
  const list = /^https?:/u.test(url) ? await ctx.session.context.cookies(url) : [];
  const rows = list.map((cookie) => ({ name: cookie.name, value: cookie.value.slice(0, 200), domain: cookie.domain, path: cookie.path, expires: cookie.expires, http_only: cookie.httpOnly, secure: cookie.secure }));
  return { text: rows.length === 0 ? `No cookies for ${url}.` : `${rows.length} cookie(s) for ${url}:\n${rows.map((row) => `${row.name}=${row.value} (${row.domain}${row.path})`).join('\n')}`, data: { cookies: rows } };
};

export const storage: ActionHandler = async (ctx) => {
  const { page } = await ctx.session.page(ctx.args.target);
  const { field, value } = ctx.args;
  try {
    const result = await page.evaluate(([key, next]) => {
      const localStorage = (globalThis as any).localStorage;
      if (key && next !== null) {
        localStorage.setItem(key, next);
        return { keys: [key], value: next };
      }
      if (key) return { keys: [key], value: localStorage.getItem(key) };
      return { keys: Object.keys(localStorage) as string[], value: null as string | null };
    }, [field ?? null, value ?? null] as const);
    if (field && value !== undefined) return { text: `Set localStorage ${field} on ${new URL(page.url()).origin}.`, data: { key: field } };
    if (field) return { text: result.value === null ? `localStorage has no ${field}.` : `localStorage ${field} = ${String(result.value).slice(0, 5_000)}`, data: { key: field, value: result.value } };
    return { text: result.keys.length === 0 ? 'localStorage is empty.' : `localStorage keys: ${result.keys.join(', ')}`, data: { keys: result.keys } };
  } catch (error) {
    throw toBrowserError(error, { call: 'storage' });
  }
};
