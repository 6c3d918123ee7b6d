// The browser tool end to end against Debian's Chromium and pages on 127.0.0.1: one headless profile is
// launched for the whole file (launches cost ~0.5 s each); every Chromium is closed in afterAll.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolResult } from '../core/capabilities/capability.js';
import { browser, BROWSER_ACT_KINDS } from '../tools/browser.js';
import { failureOf, makeToolFixture, run, type ToolFixture } from '../tools/tool-test-fixture.js';
import { browserPid } from './launcher.js';
import { createBrowserService, type BrowserService } from './service.js';
import { chromiumProcessesFor, requireChromium, startTestSite, type TestSite } from './test-pages.js';

let fx: ToolFixture;
let site: TestSite;
let forbidden: TestSite;
let service: BrowserService;
let profilesDir: string;

beforeAll(async () => {
  requireChromium();
  fx = makeToolFixture('fermix-browser-');
  forbidden = await startTestSite();
  site = await startTestSite({ forbiddenPort: () => forbidden.port });
  profilesDir = path.join(fx.fermixHome, 'browser', 'profiles');
  // `forbidden` stands in for the daemon: its port is the one the browser must never reach.
  service = createBrowserService({ profilesDir, daemonPorts: () => [forbidden.port], hasDisplay: () => false, sweepEveryMs: 0, defaultProfile: 'fermix_headless' });
});

afterAll(async () => {
  await service?.shutdown();
  await site?.close();
  await forbidden?.close();
  if (profilesDir) expect(chromiumProcessesFor(path.join(profilesDir, 'fermix_headless')), 'Chromium left running').toEqual([]);
  await fx?.dispose();
});

const call = (args: Record<string, unknown>): Promise<ToolResult> => run(browser.executor, args, fx.context({ extra: { browser: service } }));

/** The ref of the first snapshot line that matches, e.g. `textbox "City"`. */
function refOf(snapshot: string, line: RegExp): string {
  const hit = snapshot.split('\n').find((text) => line.test(text));
  const ref = hit && /\[ref=([a-z0-9]+)\]/u.exec(hit)?.[1];
  if (!ref) throw new Error(`no ref for ${line} in:\n${snapshot}`);
  return ref;
}

describe('browser: pages, snapshot refs and act', () => {
  it('fills a form through snapshot refs, submits it and reads the result', async () => {
    await call({ action: 'navigate', url: `${site.origin}/form` });
    const snap = (await call({ action: 'snapshot' })).text;
    expect(snap).toContain('heading "Book a trip"');
    await call({ action: 'act', kind: 'fill', ref: refOf(snap, /textbox "City"/u), text: 'Lisbon' });
    await call({ action: 'act', kind: 'type', ref: refOf(snap, /textbox "City"/u), text: ' Old Town' });
    const submitted = await call({ action: 'act', kind: 'submit', ref: refOf(snap, /textbox "City"/u) });
    expect(submitted.text).toContain('/result?city=Lisbon+Old+Town');
    const read = await call({ action: 'act', kind: 'get', field: 'text', selector: '#out' });
    expect(read.text).toBe('text: Trips to Lisbon Old Town');
    // The result page's snapshot shows what the page said back.
    expect((await call({ action: 'snapshot' })).text).toContain('Trips to Lisbon Old Town');
  });

  it('refuses a ref from an older snapshot, naming the call that fixes it', async () => {
    await call({ action: 'navigate', url: `${site.origin}/form` });
    const error = await failureOf(call({ action: 'act', kind: 'click', ref: 'e999' }));
    expect(error.code).toBe('invalid_action');
    expect(error.hint).toContain('action=snapshot');
  });

  it('returns a screenshot as a PNG image, capped at 4000 px a side', async () => {
    await call({ action: 'navigate', url: `${site.origin}/tall` });
    const shot = await call({ action: 'screenshot', full_page: true });
    expect(shot.images).toHaveLength(1);
    const bytes = Buffer.from(shot.images![0].base64, 'base64');
    expect(shot.images![0].mimeType).toBe('image/png');
    expect(bytes.subarray(1, 4).toString()).toBe('PNG');
    // PNG IHDR: width and height at bytes 16..24.
    expect(bytes.readUInt32BE(20)).toBe(4000);
    expect(shot.data).toMatchObject({ clipped: true });
  });

  it('names the act kind when one is sent as the action, and the missing argument of an act', async () => {
    for (const kind of BROWSER_ACT_KINDS) {
      const wrong = await failureOf(call({ action: kind, ref: 'e1' }));
      expect(wrong.code, kind).toBe('invalid_action');
      expect(wrong.message).toBe(`"${kind}" is an act kind, not a browser action.`);
      expect(wrong.hint).toContain(`{"action":"act","kind":"${kind}"`);
    }
    expect((await failureOf(call({ action: 'scroll' }))).hint).toContain('Use one of: doctor, status');
    const missing = await failureOf(call({ action: 'act', kind: 'wait' }));
    expect(missing.code).toBe('missing_action_arg');
    expect(missing.hint).toContain('wait_until');
    expect((await failureOf(call({ action: 'open', profile: 'nobody' }))).code).toBe('unknown_profile');
  });
});

describe('browser: hover, press, wait and click_coords', () => {
  const log = async () => (await call({ action: 'act', kind: 'get', field: 'text', selector: '#log' })).text;

  it('hovers an element, presses keys on an element and on the page, and clicks at page coordinates', async () => {
    await call({ action: 'navigate', url: `${site.origin}/interact` });
    const snap = (await call({ action: 'snapshot' })).text;
    expect((await call({ action: 'act', kind: 'hover', selector: '#hoverable' })).text).toBe('Hovering over #hoverable.');
    await call({ action: 'act', kind: 'press', ref: refOf(snap, /textbox "Keys"/u), key: 'Shift+KeyA' });
    await call({ action: 'act', kind: 'press', key: 'Escape' }); // the focused field gets it
    await call({ action: 'act', kind: 'press', key: 'Tab' }); // focus moves on to the Start button
    await call({ action: 'act', kind: 'press', key: 'x' });
    // #pad spans 400..600 × 300..400 in the page; a right click arrives as auxclick with button 2.
    const clicked = await call({ action: 'act', kind: 'click_coords', x: 410, y: 320 });
    expect(clicked.text).toContain('Clicked at (410, 320)');
    await call({ action: 'act', kind: 'click_coords', x: 590, y: 390, button: 'right' });
    expect(await log()).toBe('text: hover;key Shift;key A;key Escape;key Tab;page key x;click 10,20 button 0;click 190,90 button 2;');
    expect((await failureOf(call({ action: 'act', kind: 'click_coords', x: 10 }))).hint).toContain('"kind":"click_coords","x":200,"y":340');
  });

  it('waits for text, an element, a URL and the load, and times out naming the call', async () => {
    await call({ action: 'navigate', url: `${site.origin}/interact` });
    await call({ action: 'act', kind: 'click', selector: '#start' });
    expect((await call({ action: 'act', kind: 'wait', wait_until: 'text', text: 'Ready now' })).text).toBe('"Ready now" is on the page.');
    expect((await call({ action: 'act', kind: 'wait', wait_until: 'element', selector: '#later' })).text).toBe('The element is visible.');
    expect((await call({ action: 'act', kind: 'wait', wait_until: 'url', url: '/interact/done' })).text).toBe(`The page is at ${site.origin}/interact/done.`);
    expect((await call({ action: 'act', kind: 'wait', wait_until: 'load' })).text).toContain('The page has loaded');
    const late = await failureOf(call({ action: 'act', kind: 'wait', wait_until: 'text', text: 'Never shown', timeout_ms: 300 }));
    expect(late.code).toBe('timeout');
    expect(late.message).toContain('act kind=wait');
  });
});

describe('browser: tabs', () => {
  it('keeps at most 10 tabs, closing the oldest non-active one when another opens', async () => {
    const opened: string[] = [];
    const tabs = async () => ((await call({ action: 'tabs' })).data as { tabs: { target: string; active: boolean }[] }).tabs;
    for (const tab of await tabs()) await call({ action: 'close', target: tab.target });
    for (let index = 0; index < 10; index += 1) opened.push((((await call({ action: 'open', url: `${site.origin}/p${index}` })).data) as { target: string }).target);
    await call({ action: 'focus', target: opened[0] });
    const before = (await tabs()).map((tab) => tab.target);
    expect(before).toEqual(opened);
    const eleventh = await call({ action: 'open', url: `${site.origin}/p10` });
    const after = (await tabs()).map((tab) => tab.target);
    // The focused first tab survives; the oldest other tab (the second opened) goes; the new one is active.
    expect(after).toEqual([opened[0], ...opened.slice(2), (eleventh.data as { target: string }).target]);
    expect(eleventh.text).toContain(`Closed the oldest tab ${opened[1]}`);
    expect((await tabs()).find((tab) => tab.active)?.target).toBe((eleventh.data as { target: string }).target);
    for (const target of after.slice(1)) await call({ action: 'close', target });
  });
});

describe('browser: navigation policy', () => {
  it('refuses metadata and link-local addresses, other schemes and the daemon\'s own port', async () => {
    for (const url of ['http://169.254.169.254/latest/meta-data/', 'http://[fd00:ec2::254]/', 'http://metadata.google.internal/', 'http://[::ffff:169.254.169.254]/', 'file:///etc/passwd', `http://127.0.0.1:${forbidden.port}/`, `http://localhost:${forbidden.port}/`]) {
      const error = await failureOf(call({ action: 'navigate', url }));
      expect(error.code, url).toBe('navigation_blocked');
    }
    expect(forbidden.hits).toEqual([]);
    // Loopback in general (a dev server) and about:blank stay allowed.
    expect((await call({ action: 'navigate', url: 'about:blank' })).data).toMatchObject({ url: 'about:blank' });
  });

  it('refuses a redirect to the metadata address and the page\'s own subrequests to refused addresses', async () => {
    const redirect = await failureOf(call({ action: 'navigate', url: `${site.origin}/redirect-metadata` }));
    expect(redirect.code).toBe('navigation_blocked');
    expect(redirect.message).toContain('169.254.169.254');
    await call({ action: 'navigate', url: `${site.origin}/sneaky` });
    const { page } = await service.supervisor.get('fermix_headless').then(({ session }) => session.page());
    expect(await page.evaluate('window.daemonResult')).toBe('refused');
    expect(forbidden.hits).toEqual([]);
    const guard = (await service.supervisor.get('fermix_headless')).session.guard;
    expect(guard.blocked.map((entry) => entry.url)).toEqual(expect.arrayContaining(['http://169.254.169.254/latest/meta-data/x.png', `http://127.0.0.1:${forbidden.port}/`]));
  });
});

describe('browser: downloads and uploads stay in the workspace', () => {
  it('downloads into the workspace and refuses a target outside it', async () => {
    await call({ action: 'navigate', url: `${site.origin}/files` });
    const ref = refOf((await call({ action: 'snapshot' })).text, /link "Get the report"/u);
    const done = await call({ action: 'download', ref });
    expect(done.data).toMatchObject({ path: path.join(fx.workspace, 'downloads', 'report.csv'), bytes: 20 });
    expect(readFileSync(path.join(fx.workspace, 'downloads', 'report.csv'), 'utf8')).toBe('city,trips\nLisbon,3\n');
    const outside = await failureOf(call({ action: 'download', ref, path: '../escaped.csv' }));
    expect(outside.code).toBe('sandbox_denied');
    expect(existsSync(path.join(fx.workspace, '..', 'escaped.csv'))).toBe(false);
  });

  it('uploads a workspace file and refuses a file outside the workspace', async () => {
    mkdirSync(path.join(fx.workspace, 'docs'), { recursive: true });
    writeFileSync(path.join(fx.workspace, 'docs', 'cv.txt'), 'UPLOAD-MARKER hello');
    await call({ action: 'navigate', url: `${site.origin}/upload` });
    const snap = (await call({ action: 'snapshot' })).text;
    const fileRef = refOf(snap, /button "File"|"File"/u);
    const outside = await failureOf(call({ action: 'upload', ref: fileRef, path: '/etc/hostname' }));
    expect(outside.code).toBe('sandbox_denied');
    await call({ action: 'upload', ref: fileRef, path: 'docs/cv.txt' });
    await call({ action: 'act', kind: 'submit', ref: fileRef });
    expect((await call({ action: 'act', kind: 'get', field: 'text', selector: '#size' })).text).toContain('contains marker: yes');
  });
});

describe('browser: console, dialogs, storage, cookies, pdf', () => {
  it('reads the console, answers a confirm, reads and writes storage and cookies, and prints a PDF into the workspace', async () => {
    await call({ action: 'navigate', url: `${site.origin}/chatty` });
    expect((await call({ action: 'console' })).text).toContain('log: hello from the page');
    expect((await call({ action: 'storage', field: 'seen' })).text).toBe('localStorage seen = yes');
    await call({ action: 'storage', field: 'token', value: 's3cret' });
    expect((await call({ action: 'storage' })).data).toMatchObject({ keys: expect.arrayContaining(['seen', 'token']) });
    await call({ action: 'cookies', field: 'session', value: 'abc' });
    expect((await call({ action: 'cookies' })).text).toContain('session=abc');
    // Armed before the click: the confirm is accepted as it opens.
    expect((await call({ action: 'dialog', decision: 'accept' })).data).toMatchObject({ armed: true });
    await call({ action: 'act', kind: 'click', selector: 'button' });
    expect((await call({ action: 'act', kind: 'get', field: 'title' })).text).toBe('title: yes');
    const printed = await call({ action: 'pdf', path: 'out/chatty.pdf' });
    expect(readFileSync(path.join(fx.workspace, 'out', 'chatty.pdf')).subarray(0, 5).toString()).toBe('%PDF-');
    expect(printed.data).toMatchObject({ path: path.join(fx.workspace, 'out', 'chatty.pdf') });
  });
});

describe('browser: supervision', () => {
  it('relaunches a killed browser on the next call', async () => {
    await call({ action: 'navigate', url: `${site.origin}/form` });
    const dir = path.join(profilesDir, 'fermix_headless');
    const pid = browserPid(dir);
    expect(pid, 'the browser process was not found').toBeGreaterThan(0);
    const { session } = await service.supervisor.get('fermix_headless');
    const closed = new Promise<void>((resolve) => session.context.once('close', () => resolve()));
    process.kill(pid!, 'SIGKILL');
    await closed;
    const next = await call({ action: 'navigate', url: `${site.origin}/p-after` });
    expect(next.text).toContain('stopped unexpectedly and was relaunched');
    const relaunchedPid = browserPid(dir);
    expect(relaunchedPid).toBeGreaterThan(0);
    expect(relaunchedPid).not.toBe(pid);
  });
});
