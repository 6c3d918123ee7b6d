// axe-core (STACK.md) injected into the window the daemon serves: the serious and critical findings of
// the page as it is now. Used by the every-screen check (e2e/a11y.test.ts) and by specs whose screens
// need a fixture the shared session does not have (e.g. an MCP server waiting for a sign-in).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface Violation { id: string; impact: string | null; help: string; nodes: { target: string[]; failureSummary?: string }[] }

/** axe's serious and critical findings on the page as it is now, one line each. */
export async function seriousViolations(page: Page, where: string): Promise<string[]> {
  // Evaluated through the DevTools protocol: the window's CSP (script-src 'self') rightly refuses inline tags.
  if (!(await page.evaluate<boolean>("typeof window.axe === 'object'"))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate<Violation[]>("window.axe.run(document, { resultTypes: ['violations'] }).then((result) => result.violations)");
  return violations
    .filter((each) => each.impact === 'serious' || each.impact === 'critical')
    // The first node's summary carries what to change (for color-contrast: both colours and the ratio).
    .map((each) => `${where}: ${each.id} (${each.impact}) ${each.help} — ${each.nodes.slice(0, 3).map((node) => node.target.join(' ')).join(', ')} — ${(each.nodes[0]?.failureSummary ?? '').replace(/\s+/g, ' ')}`);
}
