import type { Locator, Page } from 'playwright-core';
import type { ToolResult } from '../core/capabilities/capability.js';
import { FermixError } from '../core/errors.js';
import { ACTION_TIMEOUT_MS } from './session.js';
import { SNAPSHOT_MAX_CHARS } from './snapshot.js';
import { elementOf, missingArg, requireArg, toBrowserError, type ActionContext, type ActionHandler, type BrowserArgs } from './action-support.js';

const WAIT_DEFAULT_MS = 5_000;
const GET_FIELDS = ['url', 'title', 'html', 'text', 'count', 'ready_state', 'rect'] as const;

const example = (kind: string, rest: string) => `{"action":"act","kind":"${kind}"${rest}}`;

/** After an input that may navigate (click, submit, Enter), let the new document reach DOMContentLoaded. */
async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('domcontentloaded', { timeout: ACTION_TIMEOUT_MS }).catch(() => undefined);
}

async function done(page: Page, what: string): Promise<ToolResult> {
  await settle(page);
  const title = await page.title().catch(() => '');
  return { text: `${what}. Page: ${title || '(untitled)'} — ${page.url()}. Refs may be stale now: take a new snapshot before using them.`, data: { url: page.url(), title } };
}

async function submit(page: Page, args: BrowserArgs): Promise<string> {
  const element = args.ref || args.selector ? elementOf(page, args, 'act kind=submit') : page.locator('form').first();
  const form = element.locator('xpath=ancestor-or-self::form[1]');
  if ((await form.count()) === 0) {
    throw new FermixError({ code: 'missing_action_arg', message: 'The element is not inside a form, so there is nothing to submit.', hint: `Click the page's button instead: ${example('click', ',"ref":"e12"')}.` });
  }
  const button = form.locator('button[type=submit], button:not([type]), input[type=submit], input[type=image]').first();
  if ((await button.count()) > 0) {
    await button.click();
    return 'Submitted the form with its submit button';
  }
  await form.evaluate((node: any) => node.requestSubmit());
  return 'Submitted the form';
}

async function get(page: Page, args: BrowserArgs): Promise<ToolResult> {
  const field = requireArg(args, 'field', 'act kind=get', example('get', ',"field":"text"'));
  if (!(GET_FIELDS as readonly string[]).includes(field)) {
    throw new FermixError({ code: 'missing_action_arg', message: `act kind=get has no field ${field}.`, hint: `Use field = ${GET_FIELDS.join(', ')}.`, data: { field } });
  }
  const scoped: Locator | undefined = args.ref || args.selector ? elementOf(page, args, 'act kind=get') : undefined;
  let value: unknown;
  switch (field) {
    case 'url':
      value = page.url();
      break;
    case 'title':
      value = await page.title();
      break;
    case 'ready_state':
      value = await page.evaluate(() => (globalThis as any).document.readyState as string);
      break;
    case 'html':
      value = scoped ? await scoped.innerHTML() : await page.content();
      break;
    case 'text':
      value = scoped ? await scoped.innerText() : await page.locator('body').innerText();
      break;
    case 'count':
      if (!args.selector) throw missingArg('act kind=get field=count', 'selector', example('get', ',"field":"count","selector":"li.result"'));
      value = await page.locator(args.selector).count();
      break;
    case 'rect':
      if (!scoped) throw missingArg('act kind=get field=rect', 'selector', example('get', ',"field":"rect","selector":"#submit"'));
      value = await scoped.boundingBox();
      break;
  }
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  const cut = text.length > SNAPSHOT_MAX_CHARS;
  return { text: `${field}: ${cut ? `${text.slice(0, SNAPSHOT_MAX_CHARS)}\n[cut at ${SNAPSHOT_MAX_CHARS} characters]` : text}`, data: { field, value: cut ? text.slice(0, SNAPSHOT_MAX_CHARS) : value } };
}

async function wait(page: Page, args: BrowserArgs): Promise<ToolResult> {
  const until = args.wait_until;
  if (!until) throw missingArg('act kind=wait', 'wait_until', `${example('wait', ',"wait_until":"text","text":"Saved"')} (text, url, element or load; there is no plain pause)`);
  const timeout = Math.min(args.timeout_ms ?? WAIT_DEFAULT_MS, 120_000);
  if (until === 'text') {
    const text = requireArg(args, 'text', 'act kind=wait wait_until=text', example('wait', ',"wait_until":"text","text":"Saved"'));
    await page.getByText(text).first().waitFor({ state: 'visible', timeout });
    return { text: `"${text}" is on the page.`, data: { url: page.url() } };
  }
  if (until === 'url') {
    const part = args.url ?? args.text;
    if (!part) throw missingArg('act kind=wait wait_until=url', 'url', example('wait', ',"wait_until":"url","url":"/done"'));
    await page.waitForURL((url) => url.href.includes(part), { timeout });
    return { text: `The page is at ${page.url()}.`, data: { url: page.url() } };
  }
  if (until === 'element') {
    if (!args.ref && !args.selector) throw missingArg('act kind=wait wait_until=element', 'selector', example('wait', ',"wait_until":"element","selector":"#results"'));
    await elementOf(page, args, 'act kind=wait').waitFor({ state: 'visible', timeout });
    return { text: `The element is visible.`, data: { url: page.url() } };
  }
  await page.waitForLoadState('load', { timeout });
  return { text: `The page has loaded: ${page.url()}.`, data: { url: page.url() } };
}

/** Puts the caret at the end of a text field, so `type` appends (fill replaces). */
async function focusAtEnd(element: Locator): Promise<void> {
  // Runs in the page; the node tsconfig has no DOM types.
  await element.evaluate((field: any) => {
    field.focus();
    if (typeof field.value === 'string' && typeof field.setSelectionRange === 'function') {
      try {
        field.setSelectionRange(field.value.length, field.value.length);
      } catch {
        // Inputs like type=email refuse selection ranges; their caret is already at the end after focus.
      }
    }
  });
}

export const act: ActionHandler = async (ctx: ActionContext) => {
  const { args } = ctx;
  const kind = args.kind;
  if (!kind) throw missingArg('act', 'kind', `${example('click', ',"ref":"e12"')} (kind: click, fill, type, submit, press, hover, get, wait, click_coords)`);
  const { page } = await ctx.session.page(args.target);
  const button = args.button ?? 'left';
  try {
    switch (kind) {
      case 'click':
        await elementOf(page, args, 'act kind=click').click({ button });
        return await done(page, `Clicked ${args.ref ?? args.selector}`);
      case 'fill': {
        const text = requireArg(args, 'text', 'act kind=fill', example('fill', ',"ref":"e12","text":"Lisbon"'));
        await elementOf(page, args, 'act kind=fill').fill(text);
        // The text is not echoed: fields are often passwords.
        return { text: `Filled ${args.ref ?? args.selector} (${text.length} characters).`, data: { url: page.url() } };
      }
      case 'type': {
        const text = requireArg(args, 'text', 'act kind=type', example('type', ',"ref":"e12","text":" more"'));
        const element = elementOf(page, args, 'act kind=type');
        await focusAtEnd(element);
        await page.keyboard.type(text);
        return { text: `Typed ${text.length} characters into ${args.ref ?? args.selector}.`, data: { url: page.url() } };
      }
      case 'submit':
        return await done(page, await submit(page, args));
      case 'press': {
        const key = requireArg(args, 'key', 'act kind=press', example('press', ',"key":"Enter"'));
        if (args.ref || args.selector) await elementOf(page, args, 'act kind=press').press(key);
        else await page.keyboard.press(key);
        return await done(page, `Pressed ${key}`);
      }
      case 'hover':
        await elementOf(page, args, 'act kind=hover').hover();
        return { text: `Hovering over ${args.ref ?? args.selector}.`, data: { url: page.url() } };
      case 'get':
        return await get(page, args);
      case 'wait':
        return await wait(page, args);
      case 'click_coords': {
        if (typeof args.x !== 'number' || typeof args.y !== 'number') throw missingArg('act kind=click_coords', typeof args.x !== 'number' ? 'x' : 'y', example('click_coords', ',"x":200,"y":340'));
        await page.mouse.click(args.x, args.y, { button });
        return await done(page, `Clicked at (${args.x}, ${args.y})`);
      }
      default:
        throw new FermixError({ code: 'invalid_action', message: `act has no kind ${kind}.`, hint: 'Use kind = click, fill, type, submit, press, hover, get, wait or click_coords.', data: { kind } });
    }
  } catch (error) {
    throw toBrowserError(error, { call: `act kind=${kind}`, ref: args.ref });
  }
};
