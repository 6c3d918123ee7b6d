/**
 * Permission rules as data (opencode / Voss style) and how a rule matches a call.
 *
 * A rule names a capability (exact name, a glob such as `file_*`, or `group:fs`) and optionally an
 * argument pattern: a glob over ONE canonical string of the arguments (the command, the path, the URL…).
 * Globs: `*` any run of characters, `?` one character, `\` escapes the next character.
 *
 * Two hardening choices, because a rule is a security boundary:
 * - path-like arguments are normalized (`a/./b/../c` → `a/c`) before matching, so `/tmp/*` cannot be
 *   escaped with `/tmp/../etc/passwd`;
 * - for shell commands, matching is asymmetric. An ALLOW rule's wildcards never cross shell control
 *   characters (`; & | $ < > ( ) backtick newline`), so `git status *` does not allow
 *   `git status; rm -rf ~`. An ASK/DENY rule also matches any single segment of a compound command, so
 *   `rm *` still catches `echo hi && rm -rf /`. Restrictive rules match broadly, permissive ones narrowly.
 */
import type { Capability } from './capability.js';

export type RuleAction = 'allow' | 'ask' | 'deny';
export type RuleSource = 'config' | 'always-answer' | 'default';

export interface Rule {
  /** Capability name, name glob (`file_*`, `*`), or `group:<group>`. */
  permission: string;
  /** Glob over the canonical argument string; absent = any arguments. */
  pattern?: string;
  action: RuleAction;
  source: RuleSource;
  /** Saved for a command that ran without the OS jail: every listing labels it "runs unjailed". */
  unjailed?: boolean;
}

/** Where rules live. The lead's persistent implementation writes config.toml / the store. */
export interface RuleStore {
  /** The rules in order. The same array until they change (the gate keys its decision cache on it); never mutated. */
  load(): readonly Rule[];
  add(rule: Rule): void;
}

export function createMemoryRuleStore(initial: readonly Rule[] = []): RuleStore {
  let rules: readonly Rule[] = Object.freeze([...initial]);
  return {
    load: () => rules,
    add: (rule) => {
      rules = Object.freeze([...rules, { ...rule }]);
    },
  };
}

/** Argument keys that carry "what this call touches", most specific first. */
const CANONICAL_KEYS = ['command', 'path', 'file_path', 'file', 'url', 'working_dir', 'pattern', 'query', 'name', 'target'] as const;
const PATH_KEYS = new Set(['path', 'file_path', 'file', 'working_dir']);
const SHELL_SPLIT = /&&|\|\||[;&|\n\r`]|\$\(|[()]/;

export interface CanonicalArgs {
  /** The argument key the string came from; null when it is the whole argument object as JSON. */
  field: string | null;
  value: string;
}

/** POSIX-style lexical normalization (no filesystem access: this is common code). */
export function normalizePath(path: string): string {
  const absolute = path.startsWith('/');
  const out: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (out.length > 0 && out[out.length - 1] !== '..') out.pop();
      else if (!absolute) out.push('..');
      continue;
    }
    out.push(part);
  }
  const joined = out.join('/');
  return absolute ? `/${joined}` : joined === '' ? '.' : joined;
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value as Record<string, unknown>).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${stableJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The one string an argument pattern is matched against (and that an "always" answer is scoped to). */
export function canonicalArgs(cap: Pick<Capability, 'metadata'>, args: Record<string, unknown>): CanonicalArgs {
  const declared = cap.metadata.permission_field;
  const keys = typeof declared === 'string' ? [declared] : CANONICAL_KEYS;
  for (const key of keys) {
    const value = args[key];
    if (typeof value === 'string') return { field: key, value: PATH_KEYS.has(key) ? normalizePath(value) : value };
  }
  return { field: null, value: stableJson(args) };
}

export function escapeGlob(text: string): string {
  return text.replace(/[\\*?]/g, (c) => `\\${c}`);
}

function escapeRegex(char: string): string {
  return /[.*+?^${}()|[\]\\/]/.test(char) ? `\\${char}` : char;
}

/** One character a narrow wildcard may match: anything but a shell control character. */
const NARROW_CHAR = '[^;&|$<>()`\\n\\r]';

// The gate matches every rule against every call: compiling the same globs on each call was a
// measurable share of the invoke boundary (bench/suites/mcp.ts). The patterns carry no g/y flag, so a
// shared RegExp holds no state between tests; the memo is bounded and cleared when full.
const compiledGlobs = new Map<string, RegExp>();
const MAX_COMPILED_GLOBS = 1024;

/** `narrow`: wildcards cannot cross shell control characters (allow rules on commands). */
export function globToRegExp(glob: string, narrow = false): RegExp {
  const key = `${narrow ? 'n' : 'w'}${glob}`;
  let compiled = compiledGlobs.get(key);
  if (compiled === undefined) {
    if (compiledGlobs.size >= MAX_COMPILED_GLOBS) compiledGlobs.clear();
    compiledGlobs.set(key, (compiled = compileGlob(glob, narrow)));
  }
  return compiled;
}

function compileGlob(glob: string, narrow: boolean): RegExp {
  const any = narrow ? NARROW_CHAR : '[\\s\\S]';
  let source = '';
  for (let i = 0; i < glob.length; i += 1) {
    const c = glob[i];
    if (c === '\\' && i + 1 < glob.length) source += escapeRegex(glob[++i]);
    else if (c === '*') source += `${any}*`;
    else if (c === '?') source += any;
    else source += escapeRegex(c);
  }
  return new RegExp(`^${source}$`, 'u');
}

export function permissionMatches(permission: string, cap: Pick<Capability, 'name' | 'group'>): boolean {
  if (permission.startsWith('group:')) return cap.group === permission.slice('group:'.length);
  return globToRegExp(permission).test(cap.name);
}

export function patternMatches(pattern: string, canonical: CanonicalArgs, action: RuleAction): boolean {
  if (canonical.field !== 'command') return globToRegExp(pattern).test(canonical.value);
  // `git status *` also covers a bare `git status`: the trailing " *" means "with any arguments or none".
  if (/[^\\] \*$/.test(pattern) && patternMatches(pattern.slice(0, -2), canonical, action)) return true;
  if (action === 'allow') return globToRegExp(pattern, true).test(canonical.value);
  const wide = globToRegExp(pattern);
  if (wide.test(canonical.value)) return true;
  return canonical.value.split(SHELL_SPLIT).some((segment) => segment.trim() !== '' && wide.test(segment.trim()));
}

export function ruleMatches(rule: Rule, cap: Pick<Capability, 'name' | 'group'>, canonical: CanonicalArgs): boolean {
  if (!permissionMatches(rule.permission, cap)) return false;
  return rule.pattern === undefined || patternMatches(rule.pattern, canonical, rule.action);
}

/** For audit records and approval cards: `config: shell "git *" → allow`. */
export function describeRule(rule: Rule): string {
  const pattern = rule.pattern === undefined ? '' : ` ${JSON.stringify(rule.pattern)}`;
  return `${rule.source}: ${rule.permission}${pattern} → ${rule.action}${rule.unjailed ? ' (runs unjailed)' : ''}`;
}
