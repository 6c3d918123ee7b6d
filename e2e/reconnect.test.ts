// The event socket's bookkeeping against a real daemon: a gap is filled by replay, events missed while the
// socket was down are replayed after the reconnect, and a restarted daemon is rejoined with the stored session. Playwright's
// WebSocket routing sits between page and daemon to drop messages and cut the connection on purpose.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page, WebSocketRoute } from 'playwright-core';
import { apiCall, startDaemonProcess, tempHome, waitFor, type DaemonProcess } from '../test/support/daemon-process.js';
import { requireRendererBuild } from './support/build-output.js';
import { launchChromium, saveScreenshot } from './support/chromium.js';

interface Wire {
  type: string;
  stream?: string;
  after_seq?: number;
  events?: { seq: number; payload: { title?: string } }[];
  event?: { stream: string; seq: number; payload: { title?: string } };
}

describe('event socket: replay and reconnect against a real daemon', () => {
  const home = tempHome('fermix-e2e-reconnect-');
  let daemon: DaemonProcess;
  let browser: Browser;
  let page: Page;
  let dropping = false;
  const pageSides: WebSocketRoute[] = [];
  const fromPage: Wire[] = [];
  const fromServer: Wire[] = [];
  let conversationId = '';

  const serverSent = (predicate: (message: Wire) => boolean) => waitFor(() => fromServer.some(predicate), 5000, 'the daemon to send the event');
  const list = () => page.getByRole('list', { name: 'Conversations' });

  beforeAll(async () => {
    requireRendererBuild();
    daemon = await startDaemonProcess(home);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1100, height: 600 } });
    await page.routeWebSocket(/\/api\/events$/, (ws) => {
      pageSides.push(ws);
      const server = ws.connectToServer();
      ws.onMessage((message) => {
        fromPage.push(JSON.parse(String(message)));
        server.send(message);
      });
      server.onMessage((message) => {
        fromServer.push(JSON.parse(String(message)));
        if (!dropping) ws.send(message);
      });
    });
  });

  afterAll(async () => {
    await browser?.close();
    if (daemon && daemon.child.exitCode === null) {
      process.kill(daemon.pid, 'SIGTERM');
      await daemon.exited;
    }
  });

  it('fills a gap in a stream by asking the daemon to replay it', async () => {
    await page.goto(daemon.url);
    await page.getByRole('status').filter({ hasText: 'Connected' }).waitFor();
    await waitFor(() => pageSides.length === 1, 5000, 'the event socket');
    conversationId = (await apiCall(daemon, 'conversations.create', { title: 'Alpha' })).body.result.id;
    await list().getByText('Alpha').waitFor();

    dropping = true;
    await apiCall(daemon, 'conversations.rename', { id: conversationId, title: 'Beta' });
    await serverSent((message) => message.event?.payload.title === 'Beta');
    dropping = false;
    await apiCall(daemon, 'conversations.rename', { id: conversationId, title: 'Gamma' });
    await list().getByText('Gamma').waitFor();

    expect(fromPage).toContainEqual({ type: 'replay', stream: conversationId, after_seq: 1 });
    const answer = fromServer.find((message) => message.type === 'replay' && message.stream === conversationId);
    expect(answer?.events?.map((event) => event.payload.title)).toEqual(['Beta', 'Gamma']);
  });

  it('after a dropped connection, replays what it missed and reloads streams it never saw', async () => {
    dropping = true;
    await apiCall(daemon, 'conversations.rename', { id: conversationId, title: 'Delta' });
    await apiCall(daemon, 'conversations.create', { title: 'Made while away' });
    await serverSent((message) => message.event?.payload.title === 'Made while away');
    await pageSides[0].close();
    dropping = false;

    await list().getByText('Delta').waitFor({ timeout: 10_000 });
    await list().getByText('Made while away').waitFor();
    expect(pageSides).toHaveLength(2);
    expect(fromPage).toContainEqual({ type: 'replay', stream: conversationId, after_seq: 3 });
    const answers = fromServer.filter((message) => message.type === 'replay' && message.stream === conversationId);
    expect(answers.at(-1)?.events?.map((event) => event.payload.title)).toEqual(['Delta']);
    await page.getByRole('status').filter({ hasText: 'Connected' }).waitFor();
    await saveScreenshot(page, 'reconnected');
  });

  it('reconnects by itself after a daemon restart: the window session outlives the run (no new URL needed)', async () => {
    const port = daemon.port;
    process.kill(daemon.pid, 'SIGTERM');
    await daemon.exited;
    await page.getByRole('status').filter({ hasText: 'Reconnecting' }).waitFor({ timeout: 10_000 });
    await saveScreenshot(page, 'reconnecting');

    // A new run prints a new token, but the stored web session (run/web-sessions.json) still signs this tab in.
    daemon = await startDaemonProcess(home, ['--port', String(port)]);
    await page.getByRole('status').filter({ hasText: 'Connected' }).waitFor({ timeout: 20_000 });
    await saveScreenshot(page, 'daemon-restarted');
    expect(await page.getByRole('heading', { name: /Not authorized/ }).count()).toBe(0);
    // The conversations live in the home's database, not in the daemon run.
    await list().getByText('Delta').waitFor();
    await list().getByText('Made while away').waitFor();
  }, 60_000);
});
