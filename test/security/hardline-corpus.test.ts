/**
 * The hardline corpus (test/security/hardline-corpus/): every destructive command in refuse.txt
 * must be refused with its rule, every everyday command in allow.txt must pass. A false positive
 * fails the test like a miss does. Context as the sandbox builds it: a home folder, FERMIX_HOME,
 * a working directory inside the workspace, and the protected roots of protected-paths.ts.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { explainHardline, findHardline, HARDLINE_RULES, hardlineParserStatus, loadHardline, type HardlineContext } from '../../main/sandbox/hardline.js';
import { createProtectedMatcher } from '../../main/sandbox/protected-paths.js';

const DIR = path.join(import.meta.dirname, 'hardline-corpus');
const home = '/home/dev';
const fermixHome = '/home/dev/.fermix';
const matcher = createProtectedMatcher({ home, fermixHome });
export const corpusContext: HardlineContext = {
  home,
  fermixHome,
  cwd: '/home/dev/.fermix/workspace/app',
  isProtected: (p) => matcher.match(p, 'write') !== undefined,
};

/** Lines that are not blank or comments; `⏎` stands for a newline. */
export function corpusLines(file: string): string[] {
  return readFileSync(path.join(DIR, file), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('#'))
    .map((line) => line.replaceAll('⏎', '\n'));
}

export function refuseCases(): Array<{ rule: string; command: string }> {
  return corpusLines('refuse.txt').map((line) => {
    const space = line.indexOf(' ');
    return { rule: line.slice(0, space), command: line.slice(space + 1) };
  });
}

describe('hardline corpus', () => {
  beforeAll(async () => {
    await loadHardline();
    expect(hardlineParserStatus()).toEqual({ ready: true });
  });

  it('refuses every destructive command with its rule and lets every everyday command through', () => {
    const refuse = refuseCases();
    const allow = corpusLines('allow.txt');
    expect(refuse.length).toBeGreaterThanOrEqual(300);
    expect(allow.length).toBeGreaterThanOrEqual(150);
    for (const { rule } of refuse) expect(HARDLINE_RULES, `unknown rule in refuse.txt: ${rule}`).toContain(rule);

    const wronglyAllowed: string[] = [];
    const wrongRule: string[] = [];
    const wronglyRefused: string[] = [];
    let refused = 0;
    for (const { rule, command } of refuse) {
      const hit = findHardline(command, corpusContext);
      if (hit === undefined) wronglyAllowed.push(command);
      else {
        refused += 1;
        if (hit.rule !== rule) wrongRule.push(`${command}  (expected ${rule}, got ${hit.rule})`);
      }
    }
    for (const command of allow) {
      const hit = findHardline(command, corpusContext);
      if (hit !== undefined) wronglyRefused.push(`${command}  (${hit.rule}: ${hit.excerpt.slice(0, 80)})`);
    }
    const tried = refuse.length + allow.length;
    console.log(`Hardline corpus: ${tried} tried / ${refused} refused / ${wronglyRefused.length} wrongly refused / ${wronglyAllowed.length} wrongly allowed / ${wrongRule.length} refused under another rule`);
    expect({ wronglyAllowed, wrongRule, wronglyRefused }).toEqual({ wronglyAllowed: [], wrongRule: [], wronglyRefused: [] });
  });

  it('holds with the linear reader alone (what decides when the parser is unavailable or out of budget)', () => {
    const misses: string[] = [];
    for (const { rule, command } of refuseCases()) {
      const report = explainHardline(command, corpusContext, { parser: false });
      expect(report.readers).not.toContain('tree');
      if (report.hit?.rule !== rule) misses.push(`${command}  (expected ${rule}, got ${report.hit?.rule ?? 'allowed'})`);
    }
    const falsePositives = corpusLines('allow.txt').filter((command) => explainHardline(command, corpusContext, { parser: false }).hit !== undefined);
    expect({ misses, falsePositives }).toEqual({ misses: [], falsePositives: [] });
  });
});
