// Every `fermix …` command quoted in the source (hints, usage lines, prompt text) names a verb the CLI
// really has, and a subverb that verb's usage line lists. A hint naming a verb that does not exist sends
// people to "unknown verb" (issue 15: `fermix auth login openai_codex`, `fermix start`, `fermix upgrade`).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { USAGE } from './main.js';

const ROOT = join(import.meta.dirname, '..', '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** The verbs runCli dispatches: its `case 'x':` labels and its early `argv[0] === 'x'` branches. */
function dispatchedVerbs(): Set<string> {
  const source = readFileSync(join(ROOT, 'main', 'cli', 'main.ts'), 'utf8');
  const verbs = [...source.matchAll(/case '([a-z-]+)':/g), ...source.matchAll(/argv\[0\] === '([a-z-]+)'/g)].map((match) => match[1]);
  return new Set(verbs);
}

/** verb → the subverbs its USAGE lines list (`providers list|add|…`, `secrets set NAME | clear NAME`). */
function subverbTable(verbs: Set<string>): Map<string, Set<string>> {
  const table = new Map<string, Set<string>>();
  const add = (verb: string, word: string) => table.set(verb, (table.get(verb) ?? new Set<string>()).add(word));
  for (const line of USAGE.split('\n').filter((text) => /^ {2}[a-z]/.test(text))) {
    const synopsis = line.trim().split(/ {2,}/)[0];
    let verb = '';
    // `secrets set NAME | clear NAME` continues one verb; `grant path P | revoke path P` starts another.
    for (const clause of synopsis.split(/ \| /)) {
      const words = clause.trim().split(' ');
      if (verb === '' || (verbs.has(words[0]) && table.get(verb)?.has(words[1]))) verb = words.shift()!;
      if (!table.has(verb)) table.set(verb, new Set());
      let flagValues: boolean = false;
      for (const piece of words.join(' ').split('|').map((text) => text.trim().split(' '))) {
        // `--to keyring|file`: alternatives of a flag's value, not subverbs.
        const isValue: boolean = flagValues;
        const word = piece[0].replace(/^\[|\]$/g, '');
        if (!isValue && /^[a-z][a-z-]*$/.test(word)) add(verb, word);
        flagValues = (isValue && piece.length === 1) || (piece.length >= 2 && piece.at(-2)!.startsWith('--') && /^[a-z]+$/.test(piece.at(-1)!));
      }
    }
  }
  // The old spelling the CLI still accepts (main.ts rewrites `sandbox grant|revoke path P`).
  add('sandbox', 'grant');
  add('sandbox', 'revoke');
  return table;
}

interface QuotedCommand { file: string; verb: string; subverb?: string; text: string }

function quotedCommands(): QuotedCommand[] {
  const found: QuotedCommand[] = [];
  for (const file of [...sourceFiles(join(ROOT, 'main')), ...sourceFiles(join(ROOT, 'renderer', 'src'))]) {
    const source = readFileSync(file, 'utf8');
    // `fermix verb sub …` in backticks (hints, markdown) and 'usage: fermix verb …' lines.
    for (const match of source.matchAll(/`fermix ([a-z][a-z-]*)(?: ([a-z][a-z-]*))?|usage: fermix ([a-z][a-z-]*)(?: ([a-z][a-z-]*))?/g)) {
      const verb = match[1] ?? match[3];
      const subverb = match[2] ?? match[4];
      found.push({ file: relative(ROOT, file), verb, subverb, text: match[0] });
    }
  }
  return found;
}

describe('commands named in hints', () => {
  const verbs = dispatchedVerbs();
  const subverbs = subverbTable(verbs);
  const commands = quotedCommands();

  it('the scan finds the hints it is meant to check', () => {
    expect(verbs.has('secrets') && verbs.has('doctor') && verbs.has('setup')).toBe(true);
    expect(subverbs.get('secrets')).toEqual(new Set(['set', 'clear', 'status', 'migrate']));
    expect(commands.length).toBeGreaterThan(100);
    expect(commands.some((command) => command.file.endsWith('generate-image.ts') || command.file.endsWith('backends.ts'))).toBe(true);
  });

  it('name a verb the CLI dispatches', () => {
    const unknown = commands.filter((command) => !verbs.has(command.verb)).map((command) => `${command.file}: ${command.text}`);
    expect(unknown).toEqual([]);
  });

  it('name a subverb the verb lists, when the verb has subverbs', () => {
    const unknown = commands
      .filter((command) => command.subverb !== undefined && (subverbs.get(command.verb)?.size ?? 0) > 0 && !subverbs.get(command.verb)!.has(command.subverb))
      .map((command) => `${command.file}: ${command.text}`);
    expect(unknown).toEqual([]);
  });
});
