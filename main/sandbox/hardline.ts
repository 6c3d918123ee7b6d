/**
 * "Hardline" (reference §2.3): catastrophic shell commands refused before anything runs. The
 * command is read by a real shell parser (tree-sitter-bash, hardline/parser.ts) and by a
 * conservative linear reader beside it (hardline/fallback.ts), and every pipeline, substitution,
 * here-doc, here-string, loop and function body is judged with the same rules, seeing through
 * wrappers (sudo, env, sh -c, eval, xargs, find -exec…). It is a courtesy, not a boundary: it
 * cannot follow values computed at run time. The OS jail (jail.ts) is the boundary.
 *
 * Cost: linear in the command's length (the 128 KiB cap is checked first; a worst-case adversarial
 * 128 KiB command is decided in milliseconds, `npm run bench -- hardline`). The parser loads
 * asynchronously once (`loadHardline()`, awaited by the sandbox before its first check); until it
 * has loaded, findHardline still decides, with the linear reader alone.
 */
import { FermixError } from '../core/errors.js';
import { judgeText, type Decision } from './hardline/judge.js';
import { SUBST, VAR } from './hardline/model.js';
import { cpuMs, loadShellParser, shellParserError, shellParserReady } from './hardline/parser.js';
import { HARDLINE_RULES, MAX_NESTING, RULE_DESCRIPTIONS, type HardlineRule } from './hardline/rule-names.js';
import type { TargetContext } from './hardline/targets.js';

export type { HardlineRule };
export { HARDLINE_RULES, MAX_NESTING };
export { isCatastrophicTarget } from './hardline/targets.js';

/** The runner's limit (reference: commands are at most 128 KiB); over it nothing is parsed. */
export const MAX_COMMAND_BYTES = 128 * 1024;
/** CPU-time ceiling for one decision's parsing; past it the remaining texts are read by the linear reader alone. */
const DECISION_BUDGET_MS = 40;

export type HardlineContext = TargetContext;

export interface HardlineHit {
  rule: HardlineRule;
  description: string;
  /** The simple command (or raw text) that matched, for the message and the trace. */
  excerpt: string;
}

export interface HardlineReport {
  hit: HardlineHit | undefined;
  /** Which readers looked at the command: `tree` (the parser), `scan`, `scan_unquoted` (broken quoting). */
  readers: string[];
}

/** Loads the shell parser once; safe to call many times. Never rejects (a failure leaves the linear reader). */
export function loadHardline(): Promise<void> {
  return loadShellParser();
}

export function hardlineParserStatus(): { ready: boolean; error?: string } {
  const error = shellParserError();
  return error === undefined ? { ready: shellParserReady() } : { ready: false, error: error.message };
}

export function findHardline(command: string, context: HardlineContext): HardlineHit | undefined {
  return explainHardline(command, context).hit;
}

/** `parser: false` reads with the linear reader alone (tests: it must hold on its own). */
export function explainHardline(command: string, context: HardlineContext, options: { parser?: boolean } = {}): HardlineReport {
  if (command.length > MAX_COMMAND_BYTES || Buffer.byteLength(command, 'utf8') > MAX_COMMAND_BYTES) {
    return { hit: hit('too_long', command.slice(0, 120)), readers: [] };
  }
  const decision: Decision = { deadline: cpuMs() + (options.parser === false ? -1 : DECISION_BUDGET_MS), readers: new Set() };
  const found = judgeText(command, { ...context, isProtected: memoProtected(context.isProtected) }, 0, decision);
  return { hit: found === undefined ? undefined : hit(found.rule, found.excerpt), readers: [...decision.readers] };
}

export function checkHardline(command: string, context: HardlineContext): void {
  const found = findHardline(command, context);
  if (found !== undefined) throw hardlineError(found);
}

export function hardlineError(found: HardlineHit): FermixError {
  return new FermixError({
    code: 'sandbox_hardline',
    message: `Command refused by the sandbox hardline (${found.description}): ${found.excerpt.slice(0, 300)}`,
    hint: 'Fermix never runs this pattern. If you really mean it, run it yourself in a terminal.',
    data: { reason: 'hardline', rule: found.rule },
  });
}

/** Distinct paths one decision asks the caller's isProtected about (it may touch the filesystem). */
const MAX_PROTECTED_QUERIES = 128;

/**
 * The caller's predicate, memoised for one decision and capped: past MAX_PROTECTED_QUERIES distinct
 * paths only the built-in protected tree (targets.ts) answers, so a command naming thousands of
 * targets cannot turn the check into thousands of path resolutions.
 */
function memoProtected(isProtected: HardlineContext['isProtected']): HardlineContext['isProtected'] {
  if (isProtected === undefined) return undefined;
  const seen = new Map<string, boolean>();
  return (p) => {
    const known = seen.get(p);
    if (known !== undefined) return known;
    if (seen.size >= MAX_PROTECTED_QUERIES) return false;
    const answer = isProtected(p);
    seen.set(p, answer);
    return answer;
  };
}

function hit(rule: HardlineRule, excerpt: string): HardlineHit {
  return { rule, description: RULE_DESCRIPTIONS[rule], excerpt: excerpt.replaceAll(SUBST, '$(…)').replaceAll(VAR, '$…') };
}
