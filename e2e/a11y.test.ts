// An automated accessibility check: axe-core (STACK.md) injected into the window the daemon serves, run over
// every screen and every Settings section, light and dark; no serious or critical violation may remain.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastMessageIsToolResult, startModelServer, type ModelServer } from '../test/fixtures/model-server/index.js';
import { providerConfig, startAppSession, type AppSession } from './support/app-session.js';
import { seriousViolations } from './support/axe.js';

describe('accessibility (axe-core) on every screen', () => {
  let server: ModelServer;
  let app: AppSession;

  beforeAll(async () => {
    server = await startModelServer();
    // A reply with what markdown makes of it (table, task list, highlighted code): those elements are checked too.
    server.setScript(() => ({ text: 'Hello from the scripted model.\n\n| tool | calls |\n|---|--:|\n| shell | 2 |\n\n- [x] done\n- [ ] to do\n\n```ts\nconst answer = 42; // why\n```' }));
    app = await startAppSession({ config: providerConfig(server.baseUrlOpenAI), viewport: { width: 1280, height: 800 } });
  }, 90_000);

  afterAll(async () => {
    await app?.close();
    await server?.close();
  });

  it('finds no serious or critical violation on Chat, Jobs, Skills, Memory, Plugins, every Settings section and Audit, light and dark', { timeout: 60_000 }, async () => {
    const { page } = app;
    const nav = page.getByRole('navigation', { name: 'Main' });
    const found: string[] = [];
    const check = async (where: string) => {
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme });
        found.push(...(await seriousViolations(page, `${where} (${colorScheme})`)));
      }
      await page.emulateMedia({ colorScheme: 'light' });
    };
    await page.getByRole('textbox', { name: 'Message' }).fill('Hello');
    await page.getByRole('textbox', { name: 'Message' }).press('Enter');
    await page.getByText('Hello from the scripted model.').first().waitFor();
    await page.locator('.code-block .tok-keyword').first().waitFor();
    await check('Chat');
    for (const screen of ['Jobs', 'Skills', 'Memory', 'Plugins', 'Audit']) {
      if ((await nav.getByRole('button', { name: screen, exact: true }).count()) === 0) continue; // Jobs only where the build has it
      await nav.getByRole('button', { name: screen, exact: true }).click();
      await page.getByRole('heading', { name: screen, level: 1 }).waitFor();
      await check(screen);
    }
    await nav.getByRole('button', { name: 'Settings' }).click();
    const sections = page.getByRole('navigation', { name: 'Settings sections' });
    for (const section of await sections.getByRole('button').allInnerTexts()) {
      await sections.getByRole('button', { name: section, exact: true }).click();
      await page.getByRole('heading', { name: section, level: 2, exact: true }).waitFor();
      await check(`Settings → ${section}`);
    }
    expect(found).toEqual([]);
  });

  it('finds none on an approval card with its "Always allow" scope choice, light and dark', { timeout: 60_000 }, async () => {
    const { page } = app;
    server.setScript((request) => (lastMessageIsToolResult(request) ? { text: 'Done.' } : { toolCalls: [{ name: 'shell', arguments: { command: 'git status -s' } }] }));
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Chat', exact: true }).click();
    await page.getByRole('textbox', { name: 'Message' }).fill('status');
    await page.getByRole('textbox', { name: 'Message' }).press('Enter');
    const card = page.getByRole('group', { name: 'Approval needed: Run a command' });
    await card.getByRole('combobox', { name: 'Always allow applies to' }).waitFor({ timeout: 15_000 });
    const found: string[] = [];
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      found.push(...(await seriousViolations(page, `Approval card (${colorScheme})`)));
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await card.getByRole('button', { name: 'Deny', exact: true }).click();
    expect(found).toEqual([]);
  });
});
