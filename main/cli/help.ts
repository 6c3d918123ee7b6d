/**
 * `--help` (or `-h`) on any verb and subverb: `fermix ask --help`, `fermix capabilities call --help`.
 * The text comes from the one usage table (USAGE in main.ts) plus the verbs' own usage strings, so the
 * per-verb help cannot drift from `fermix help`. Every `fermix` in it is printed as the invocation that
 * works from here (`npx fermix` in a checkout).
 */
import { cliCommand } from './invocation.js';

/** True when argv asks for help before any `--` (after which words belong to a helper command). */
export function wantsHelp(argv: string[]): boolean {
  const dash = argv.indexOf('--');
  const words = dash === -1 ? argv : argv.slice(0, dash);
  return words.includes('--help') || words.includes('-h');
}

/** Rewrites `fermix ` at the start of commands to the invocation that works from here. */
export function localizeUsage(text: string): string {
  const invocation = cliCommand();
  if (invocation === 'fermix') return text;
  return text.replace(/(^|[\s`(])fermix(?= )/gm, `$1${invocation}`);
}

/**
 * The help for `words` (the positional words: verb, maybe a subverb): the usage lines that start with
 * the longest matching prefix, then any verb-specific usage text. Undefined for an unknown verb.
 */
export function helpFor(usage: string, words: string[], extra: Record<string, string> = {}): string | undefined {
  const lines = usage.split('\n').filter((line) => /^ {2}\S/.test(line));
  // `grant path P | revoke path P` is one line for two verbs.
  const matches = (line: string, prefix: string) => line.trimStart().startsWith(`${prefix} `) || line.trimStart() === prefix || line.includes(`| ${prefix} `);
  for (let length = Math.min(words.length, 2); length >= 1; length -= 1) {
    const prefix = words.slice(0, length).join(' ');
    const found = lines.filter((line) => matches(line, prefix));
    const own = extra[prefix];
    if (found.length > 0 || own) return localizeUsage([`usage: fermix ${prefix} …`, ...found, ...(own ? ['', own] : [])].join('\n'));
  }
  return undefined;
}
