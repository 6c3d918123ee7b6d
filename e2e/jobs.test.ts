// The Jobs screen in Chromium against a real daemon: two jobs created in the chat (schedule_job, approved
// once) are listed with their schedule and state; Run now produces a run whose output shows in the runs
// list and lands in the Jobs conversation of the chat; pause/resume and remove work from the window.
// Screenshots: e2e/artifacts/jobs-*.png at 1280×800 and 800×600, light and dark.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastUserText, startModelServer, toolResultsOf, type ModelServer } from '../test/fixtures/model-server/index.js';
import { apiCall, waitFor } from '../test/support/daemon-process.js';
import { providerConfig, startAppSession, type AppSession } from './support/app-session.js';
import { saveScreenshot } from './support/chromium.js';

const DIGEST = 'Summary: 3 unread newsletters; the team sync moved to 15:00; nothing else needs you today.';

describe('the Jobs screen', () => {
  let server: ModelServer;
  let app: AppSession;

  /** One chat turn whose schedule_job call is approved once through the approvals API. */
  async function scheduleFromChat(args: Record<string, unknown>): Promise<void> {
    server.setScript((request) => {
      if (lastUserText(request).includes('You are running the scheduled job')) return { text: DIGEST };
      return toolResultsOf(request).length > 0 ? { text: 'Scheduled.' } : { toolCalls: [{ name: 'schedule_job', arguments: args }] };
    });
    const sent = await apiCall(app.daemon, 'chat.send', { message: `schedule ${String(args.name)}` });
    await waitFor(async () => (await apiCall(app.daemon, 'approvals.list')).body.result.pending.length === 1, 30_000, 'the schedule_job card');
    const card = (await apiCall(app.daemon, 'approvals.list')).body.result.pending[0];
    await apiCall(app.daemon, 'approvals.answer', { id: card.id, answer: 'once' });
    await waitFor(async () => (await apiCall(app.daemon, 'chat.turn', { turn_id: sent.body.result.turn_id })).body.result?.status === 'completed', 30_000, 'the turn to complete');
  }

  async function shoot(name: string): Promise<void> {
    const { page } = app;
    for (const [width, height] of [[1280, 800], [800, 600]] as const) {
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.setViewportSize({ width, height });
        await page.emulateMedia({ colorScheme });
        await saveScreenshot(page, `${name}-${width}x${height}-${colorScheme}`);
      }
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.emulateMedia({ colorScheme: 'light' });
  }

  beforeAll(async () => {
    server = await startModelServer();
    app = await startAppSession({ config: providerConfig(server.baseUrlOpenAI), viewport: { width: 1280, height: 800 } });
    await scheduleFromChat({ name: 'Morning digest', schedule: '0 8 * * 1-5', timezone: 'Europe/Lisbon', task: "Summarise unread newsletters and today's calendar." });
    await scheduleFromChat({ name: 'Price watch', schedule: 'every 6 hours', task: 'Check the price of the Sony WH-1000XM5 and report drops below 250 EUR.' });
  }, 120_000); // two shared cores under CI load: daemon start, Chromium and two approved turns

  afterAll(async () => {
    await app?.close();
    await server?.close();
  });

  it('lists the jobs; Run now shows the run with its output, and the result is in the Jobs conversation', { timeout: 90_000 }, async () => {
    const { page } = app;
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Jobs' }).click();
    const list = page.getByRole('list', { name: 'Scheduled jobs' });
    await list.getByText('Morning digest').waitFor();
    await list.getByText('Price watch').waitFor();
    // The cron line in words (schedule-words.ts); the exact line stays in the tooltip.
    await list.getByText('Weekdays at 08:00').waitFor();
    expect(await list.locator('[title="0 8 * * 1-5"]').count()).toBe(1);
    expect(await list.getByText('Scheduled').count()).toBe(2);

    await page.getByRole('button', { name: 'Show runs of Morning digest' }).click();
    await page.getByRole('button', { name: 'Run Morning digest now' }).click();
    const runs = page.getByRole('region', { name: 'Runs of Morning digest' });
    await runs.getByText(DIGEST).waitFor({ timeout: 30_000 });
    await runs.getByText('ok', { exact: true }).waitFor();
    await runs.getByText('Run now', { exact: true }).waitFor();
    await shoot('jobs');

    // The same answer arrived in the chat, in the Jobs conversation.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Chat' }).click();
    await page.getByRole('list', { name: 'Conversations' }).getByRole('button', { name: /^Jobs/ }).first().click();
    await page.getByText(DIGEST).waitFor({ timeout: 30_000 });
    // The run's own conversation is not one of the person's: it never shows in the list.
    expect(await page.getByRole('list', { name: 'Conversations' }).getByRole('button', { name: /^Job · / }).count()).toBe(0);
    await saveScreenshot(page, 'jobs-inbox-1280x800-light');
    expect(app.errors).toEqual([]);
  });

  it('pauses, resumes and removes a job from the window', { timeout: 90_000 }, async () => {
    const { page } = app;
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Jobs' }).click();
    await page.getByRole('button', { name: 'Pause Price watch' }).click();
    await page.getByRole('button', { name: 'Resume Price watch' }).waitFor();
    expect((await apiCall(app.daemon, 'jobs.list')).body.result.jobs.find((job: { id: string }) => job.id === 'price_watch').state).toBe('paused');
    expect(await page.getByRole('button', { name: 'Run Price watch now' }).isDisabled()).toBe(true);
    await shoot('jobs-paused');
    await page.getByRole('button', { name: 'Resume Price watch' }).click();
    await page.getByRole('button', { name: 'Pause Price watch' }).waitFor();
    await page.getByRole('button', { name: 'Remove Price watch' }).click();
    await page.getByRole('button', { name: 'Show runs of Price watch' }).waitFor({ state: 'detached' });
    expect((await apiCall(app.daemon, 'jobs.list')).body.result.jobs.map((job: { id: string }) => job.id)).toEqual(['morning_digest']);
    expect(app.errors).toEqual([]);
  });
});
