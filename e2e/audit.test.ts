// The Audit screen in Chromium against a real daemon: a shell call approved from the chat and one denied
// are listed with who decided, filtered by decision, and exported as CSV and JSONL downloads.
// Screenshots: e2e/artifacts/audit*.png.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastMessageIsToolResult, startModelServer, type ModelServer } from '../test/fixtures/model-server/index.js';
import { apiCall, waitFor } from '../test/support/daemon-process.js';
import { providerConfig, startAppSession, type AppSession } from './support/app-session.js';
import { saveScreenshot } from './support/chromium.js';

describe('the audit list', () => {
  let server: ModelServer;
  let app: AppSession;

  /** A chat turn whose shell call is answered through the approvals API. */
  async function shellTurn(command: string, answer: 'once' | 'deny'): Promise<void> {
    server.setScript((request) => (lastMessageIsToolResult(request) ? { text: 'ok' } : { toolCalls: [{ name: 'shell', arguments: { command } }] }));
    const sent = await apiCall(app.daemon, 'chat.send', { message: `run ${command}` });
    await waitFor(async () => (await apiCall(app.daemon, 'approvals.list')).body.result.pending.length === 1, 15_000, 'the approval card');
    const card = (await apiCall(app.daemon, 'approvals.list')).body.result.pending[0];
    await apiCall(app.daemon, 'approvals.answer', { id: card.id, answer });
    await waitFor(async () => ['completed', 'failed'].includes((await apiCall(app.daemon, 'chat.turn', { turn_id: sent.body.result.turn_id })).body.result?.status), 15_000, 'the turn to end');
  }

  beforeAll(async () => {
    server = await startModelServer();
    app = await startAppSession({ config: providerConfig(server.baseUrlOpenAI) });
    await shellTurn('echo audited', 'once');
    await shellTurn('echo refused', 'deny');
  });

  afterAll(async () => {
    await app?.close();
    await server?.close();
  });

  it('lists the approved call and the denial, with who decided', { timeout: 60_000 }, async () => {
    const { page } = app;
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Audit' }).click();
    const table = page.getByRole('table', { name: 'Audit records, newest first' });
    await table.waitFor({ timeout: 10_000 });
    const allowed = table.getByRole('row').filter({ hasText: 'echo audited' });
    await allowed.getByText('allowed', { exact: true }).waitFor();
    await allowed.getByText('your answer: once').waitFor();
    await allowed.getByText('operator · chat').waitFor();
    const denied = table.getByRole('row').filter({ hasText: 'echo refused' });
    await denied.getByText('denied', { exact: true }).waitFor();
    await denied.getByText('your answer: deny').waitFor();
    await saveScreenshot(page, 'audit');
    expect(app.errors).toEqual([]);
  });

  it('filters by decision and capability, and exports what the filter shows', { timeout: 60_000 }, async () => {
    const { page } = app;
    const table = page.getByRole('table', { name: 'Audit records, newest first' });
    await page.getByLabel('Decision').selectOption('deny');
    await table.getByRole('row').filter({ hasText: 'echo audited' }).waitFor({ state: 'detached' });
    await table.getByRole('row').filter({ hasText: 'echo refused' }).waitFor();
    await page.getByLabel('Capability').selectOption('shell');
    await saveScreenshot(page, 'audit-filtered');

    // Spoken names are the visible text (label in name); what each exports is its description.
    const exportCsv = page.getByRole('button', { name: 'Export CSV', exact: true });
    const describedBy = await exportCsv.getAttribute('aria-describedby');
    expect(await page.locator(`[id="${describedBy}"]`).textContent()).toBe('The filtered records as a CSV spreadsheet.');
    const [csv] = await Promise.all([page.waitForEvent('download'), exportCsv.click()]);
    expect(csv.suggestedFilename()).toMatch(/^fermix-audit-.*\.csv$/);
    const csvText = readFileSync((await csv.path())!, 'utf8');
    expect(csvText).toContain('echo refused');
    expect(csvText).not.toContain('echo audited');

    await page.getByLabel('Decision').selectOption('any');
    const [jsonl] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export JSONL', exact: true }).click()]);
    const lines = readFileSync((await jsonl.path())!, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { capability: string; decision: string });
    expect(lines.every((line) => line.capability === 'shell')).toBe(true);
    expect(lines.map((line) => line.decision).sort()).toEqual(['allow', 'deny']);
    expect(app.errors).toEqual([]);
  });
});
