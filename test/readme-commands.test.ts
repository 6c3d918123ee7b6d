// Every command README.md shows is one the CLI knows (issue 15: the README's `fermix sandbox grant path
// DIR` was a usage error; "the CLI behaves as the README says, verb for verb"). Each `fermix …` line in
// the README's code blocks is split into its verb, its subverb alternatives and its flags; the real CLI
// (runCli, no daemon needed) must answer `VERB SUB --help` with exit 0, a usage header naming that verb
// and subverb, and a text that lists every flag the README uses with it. `npm run X` names a real script.
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliInvocation } from '../main/cli/invocation.js';
import { runCli } from '../main/cli/main.js';
import { ROOT, tempHome } from './support/daemon-process.js';

const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

function codeBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```[a-z]*\n([\s\S]*?)^```/gm)].map((match) => match[1]);
}

/** `alternative`: after a `|` (`stop | restart`), where the word may be a verb of its own. */
interface ReadmeClause { verb: string; subverb?: string; flags: string[]; line: string; alternative?: boolean }

/**
 * `npx fermix memory list | search WORDS | forget KEY ;  npx fermix skills list` → one clause per
 * alternative. Quoted arguments may hold `|` (`--command 'curl … | sh'`), words after `--` belong to a
 * helper command, and `# …` after two spaces is the README's comment.
 */
export function readmeClauses(line: string): ReadmeClause[] {
  const clauses: ReadmeClause[] = [];
  const bare = line.replace(/'[^']*'|"[^"]*"/g, 'ARG').replace(/\s{2,}#.*$/, '');
  for (const command of bare.split(/\s;\s+/)) {
    const words = command.trim().replace(/^(npx )?fermix /, '').replace(/ -- .*$/, '').replace(/[[\]]/g, ' ').trim();
    const [verb, ...rest] = words.split(/\s+/);
    rest.join(' ').split('|').forEach((alternative, index) => {
      const parts = alternative.trim().split(/\s+/).filter(Boolean);
      const subverb = parts[0] !== undefined && /^[a-z][a-z-]*$/.test(parts[0]) ? parts[0] : undefined;
      clauses.push({ verb, subverb, flags: parts.filter((part) => part.startsWith('-')), line, alternative: index > 0 });
    });
  }
  return clauses;
}

function readmeCommands(): { fermix: string[]; npm: string[] } {
  const lines = codeBlocks(README).flatMap((block) => block.split('\n').map((text) => text.trim()));
  return { fermix: lines.filter((text) => /^(npx )?fermix /.test(text)), npm: lines.filter((text) => /^npm /.test(text)) };
}

async function help(words: string[]): Promise<{ code: number; text: string }> {
  const out: string[] = [];
  const code = await runCli([...words, '--help'], { out: (text) => out.push(text), err: (text) => out.push(text) });
  return { code, text: out.join('\n') };
}

const header = (text: string) => text.split('\n')[0].replace(/^usage: (npx |node \S+ )?fermix /, 'usage: fermix ');

/** Problems with one clause, or [] when the CLI knows it as the README writes it. */
async function problemsOf(clause: ReadmeClause): Promise<string[]> {
  const verbHelp = await help([clause.verb]);
  if (verbHelp.code !== 0 || !header(verbHelp.text).startsWith(`usage: fermix ${clause.verb} `)) return [`unknown verb "${clause.verb}" in: ${clause.line}`];
  let text = verbHelp.text;
  if (clause.subverb !== undefined) {
    const subHelp = await help([clause.verb, clause.subverb]);
    const named = subHelp.code === 0 && (header(subHelp.text).startsWith(`usage: fermix ${clause.verb} ${clause.subverb} `) || new RegExp(`[\\s|[]${clause.subverb}[\\s|\\]]`).test(subHelp.text));
    // `stop | restart`: the alternative is a verb of its own.
    const ownVerb = named || !clause.alternative ? undefined : await help([clause.subverb]);
    if (!named && !(ownVerb?.code === 0 && header(ownVerb.text).startsWith(`usage: fermix ${clause.subverb} `))) return [`"${clause.verb} ${clause.subverb}" is not a subverb the CLI lists, in: ${clause.line}`];
    text = named ? subHelp.text : ownVerb!.text;
  }
  return clause.flags.filter((flag) => !new RegExp(`(^|[\\s[|])${flag}([\\s\\]|=]|$)`, 'm').test(text)).map((flag) => `${flag} is not in \`fermix ${clause.verb}${clause.subverb ? ` ${clause.subverb}` : ''} --help\`, in: ${clause.line}`);
}

describe('README commands', () => {
  const { fermix, npm } = readmeCommands();

  it('keeps exactly the two set-up lines, and the scan finds the everyday commands', () => {
    const setUp = README.slice(README.indexOf('## Set up'), README.indexOf('\n## ', README.indexOf('## Set up') + 1));
    expect(codeBlocks(setUp).map((block) => block.trim())).toEqual(['npm ci && npm start', 'npm ci && npm test']);
    expect(fermix.length).toBeGreaterThan(20);
    const clauses = fermix.flatMap(readmeClauses);
    // The parser itself: alternatives, `;`-joined commands, quoted `|`, `--` helper commands and comments.
    expect(readmeClauses("npx fermix sandbox explain --command 'curl -s https://x | sh'   # runs nothing")).toEqual([{ verb: 'sandbox', subverb: 'explain', flags: ['--command'], line: expect.any(String), alternative: false }]);
    expect(readmeClauses('npx fermix memory list | forget KEY ;  npx fermix skills reload').map((c) => `${c.verb} ${c.subverb}`)).toEqual(['memory list', 'memory forget', 'skills reload']);
    expect(readmeClauses('npx fermix mcp add files -- npx -y server --flag').map((c) => [c.subverb, c.flags])).toEqual([['add', []]]);
    for (const expected of ['grant path', 'secrets migrate', 'token rotate', 'mcp auth', 'jobs runs']) expect(clauses.map((c) => `${c.verb} ${c.subverb}`)).toContain(expected);
  });

  it('every `fermix` verb, subverb and flag in the README is one the CLI lists in --help (exit 0)', async () => {
    const problems: string[] = [];
    for (const clause of fermix.flatMap(readmeClauses)) problems.push(...(await problemsOf(clause)));
    expect(problems).toEqual([]);
  });

  it('an unknown verb or subverb fails the check (the check can fail)', async () => {
    expect(await problemsOf({ verb: 'sandbox', subverb: 'frobnicate', flags: [], line: 'x' })).toHaveLength(1);
    expect(await problemsOf({ verb: 'launch', flags: [], line: 'x' })).toHaveLength(1);
    // The README's old `fermix sandbox grant path DIR` (issue 15): grant is a verb, not a sandbox subverb.
    expect(await problemsOf({ verb: 'sandbox', subverb: 'grant', flags: [], line: 'x' })).toHaveLength(1);
    expect(await problemsOf({ verb: 'stop', subverb: 'restart', flags: [], line: 'x', alternative: true })).toEqual([]);
    expect(await problemsOf({ verb: 'status', flags: ['--everything'], line: 'x' })).toHaveLength(1);
  });

  it('every `npm run` script the README names exists', () => {
    const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    const named = npm.flatMap((line) => [...line.matchAll(/npm (?:run )?([a-z][\w:-]*)/g)].map((match) => match[1])).filter((name) => !['ci', 'install', 'link'].includes(name));
    expect(named.length).toBeGreaterThan(0);
    expect(named.filter((name) => scripts[name] === undefined)).toEqual([]);
  });

  it('hints say `npx fermix` under `npx fermix` in a checkout, as the README promises', () => {
    // npx links the checkout's own bin into ~/.npm/_npx/<hash>/node_modules/.bin and puts that on PATH:
    // a `fermix` found there does not exist in the person's shell (the trial's doctor said `fermix stop`).
    const npxBin = join(tempHome('fermix-npx-'), '_npx', 'abc', 'node_modules', '.bin');
    mkdirSync(npxBin, { recursive: true });
    writeFileSync(join(npxBin, 'fermix'), '#!/bin/sh\n');
    chmodSync(join(npxBin, 'fermix'), 0o755);
    expect(cliInvocation({ env: { PATH: `${npxBin}:/usr/bin:/bin` }, cwd: ROOT, root: ROOT })).toBe('npx fermix');
    // A fermix installed on PATH (npm link, npm install -g) is still plain `fermix`.
    const installed = join(tempHome('fermix-path-'), 'bin');
    mkdirSync(installed);
    writeFileSync(join(installed, 'fermix'), '#!/bin/sh\n');
    chmodSync(join(installed, 'fermix'), 0o755);
    expect(cliInvocation({ env: { PATH: `${npxBin}:${installed}:/usr/bin` }, cwd: ROOT, root: ROOT })).toBe('fermix');
  });
});
