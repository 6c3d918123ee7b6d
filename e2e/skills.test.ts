// The Skills screen in Chromium against a real daemon: the bundled skills are listed with their trust and
// tools; one opens with its instructions; a SKILL.md dropped into $FERMIX_HOME/skills appears after Reload
// (with the report); the New skill form refuses a bad name next to the Name field, then creates one that
// is listed at once and written to disk as skill_create writes it.
// Screenshots: e2e/artifacts/skills-*.png at 1440×900, 1280×800, 800×600 and 390×844, light and dark.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { apiCall } from '../test/support/daemon-process.js';
import { useAppSession } from './support/app-session.js';
import { shootSizes } from './support/screen-shots.js';

const VIEWPORT = { width: 1280, height: 800 };

describe('the Skills screen', () => {
  const app = useAppSession({ viewport: VIEWPORT });

  it('lists the skills with trust and tools, opens one, and picks up a new SKILL.md on Reload', { timeout: 60_000 }, async () => {
    const { page } = app;
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Skills' }).click();
    const list = page.getByRole('list', { name: 'Skills' });
    for (const name of ['code-review', 'memory-review', 'self-knowledge']) await list.getByRole('button', { name: new RegExp(`^${name}`) }).waitFor();
    expect(await list.getByText('Operator', { exact: true }).count()).toBe(3);

    await list.getByRole('button', { name: /^code-review/ }).click();
    const detail = page.getByRole('region', { name: 'code-review', exact: true });
    await detail.getByText('Bundled with Fermix').waitFor();
    for (const tool of ['git_read', 'file_read', 'content_search', 'glob_search']) await detail.getByText(tool, { exact: true }).waitFor();
    await detail.getByRole('region', { name: 'Instructions of code-review' }).getByText('# Code review').waitFor();

    mkdirSync(join(app.home, 'skills', 'trip-notes', 'references'), { recursive: true });
    writeFileSync(join(app.home, 'skills', 'trip-notes', 'SKILL.md'), '---\nname: trip-notes\ndescription: "Use to keep travel notes."\nallowed_tools: [memory_recall]\n---\n\nCollect the travel notes. TRIP-BODY\n');
    writeFileSync(join(app.home, 'skills', 'trip-notes', 'references', 'packing.md'), 'Passport, charger. PACKING-REF\n');
    await page.getByRole('button', { name: 'Reload', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Reloaded 4 skills: 1 added, 0 removed, 0 changed.' }).waitFor();
    await list.getByRole('button', { name: /^trip-notes/ }).click();
    const trip = page.getByRole('region', { name: 'trip-notes', exact: true });
    await trip.getByText('Your skills folder').waitFor();
    await trip.getByText('memory_recall', { exact: true }).waitFor();
    await trip.getByRole('button', { name: 'packing.md' }).click();
    await trip.getByText('PACKING-REF').waitFor();
    await shootSizes(page, 'skills', VIEWPORT);
    expect(app.errors).toEqual([]);
  });

  it('creates a skill from the form: a refusal sits next to the Name field, and the new skill is listed', { timeout: 60_000 }, async () => {
    const { page } = app;
    await page.getByRole('button', { name: 'New skill' }).click();
    const form = page.getByRole('form', { name: 'New skill' });
    const name = form.getByRole('textbox', { name: 'Name' });
    await name.fill('code-review');
    await form.getByRole('textbox', { name: 'When to use it' }).fill('Use to draft the Friday status report.');
    await form.getByRole('button', { name: 'Create skill' }).click();
    // The daemon's already_exists, under the field, and the field says it is invalid and points at it.
    await expect.poll(() => name.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await name.getAttribute('aria-describedby'))!.split(' ');
    expect(await page.locator(`[id="${describedBy[0]}"]`).innerText()).toContain('already exists');
    await shootSizes(page, 'skills-create-error', VIEWPORT, [VIEWPORT, { width: 390, height: 844 }]);
    // Editing the name clears it.
    await name.fill('weekly-report');
    expect(await name.getAttribute('aria-invalid')).toBeNull();
    expect(await form.getByRole('alert').count()).toBe(0);
    await form.getByRole('button', { name: 'Create skill' }).click();
    await form.waitFor({ state: 'detached' });
    await page.getByRole('list', { name: 'Skills' }).getByRole('button', { name: /^weekly-report/ }).waitFor();
    await page.getByRole('region', { name: 'weekly-report', exact: true }).getByText('None: it only reads and writes text').waitFor();
    expect(existsSync(join(app.home, 'skills', 'weekly-report', 'evals', 'evals.json'))).toBe(true);
    expect((await apiCall(app.daemon, 'skills.list')).body.result.skills.map((skill: { name: string }) => skill.name)).toContain('weekly-report');
    await shootSizes(page, 'skills-created', VIEWPORT, [VIEWPORT]);
    // The refused create is an HTTP 422, which Chromium logs as a failed resource: expected, nothing else.
    expect(app.errors.filter((error) => !error.includes('status of 422'))).toEqual([]);
  });
});
