/**
 * Honest rules for commands that run without the OS jail (Linux without bubblewrap; macOS and
 * Windows today). The shell still works there, but nothing approves it wholesale: auto mode asks,
 * and only a scoped allow rule — a program and subcommand such as `git status *` written for this
 * exact capability — can let a call through unasked. See docs/decisions/0011-unjailed-shell.md.
 */
import type { Capability } from './capability.js';
import type { Rule } from './rules.js';

/** The one line the approval card, the CLI prompt and `sandbox status` show. */
export const UNJAILED_WARNING = "No OS jail on this machine: the command runs with your account's full rights.";

/** Capabilities that start processes through the sandbox runner (the shell, command presets, git_write). */
export function runsCommands(cap: Pick<Capability, 'metadata'>): boolean {
  return cap.metadata.runs_commands === true || cap.metadata.sandbox_command === true;
}

// Programs whose arguments decide alone how much they destroy or what they run: for them a
// program-wide rule (`rm *`) would be a blank cheque, so an "always" answer keeps the exact command.
const EXACT_ONLY = new Set([
  'rm', 'rmdir', 'mv', 'cp', 'dd', 'chmod', 'chown', 'chgrp', 'kill', 'pkill', 'killall', 'shred', 'truncate',
  'sudo', 'doas', 'su', 'sh', 'bash', 'zsh', 'dash', 'fish', 'ksh', 'python', 'python3', 'node', 'perl', 'ruby',
  'php', 'deno', 'bun', 'eval', 'exec', 'env', 'xargs', 'find', 'curl', 'wget', 'nc', 'ssh', 'scp', 'rsync', 'tee',
]);
const CONTROL = /[;&|$<>()`\n\r\\*?]/;
const PROGRAM = /^[A-Za-z0-9_][A-Za-z0-9_.+-]*$/;
const SUBCOMMAND = /^[A-Za-z][A-Za-z0-9_-]*$/;

/**
 * The scope an "always" answer stores for a shell command: `git status --short` → `git status *`,
 * `make` → `make *`. Undefined when no safe scope exists (compound commands, substitutions,
 * variable assignments, programs in EXACT_ONLY): the caller then keeps the exact command.
 */
export function scopedCommandPattern(command: string): string | undefined {
  const text = command.trim();
  if (text === '' || CONTROL.test(text)) return undefined;
  const words = text.split(/\s+/);
  const program = words[0];
  if (!PROGRAM.test(program) || program.includes('=')) return undefined;
  const sub = words[1];
  if (sub !== undefined && SUBCOMMAND.test(sub)) return EXACT_ONLY.has(program) ? undefined : `${program} ${sub} *`;
  return EXACT_ONLY.has(program) ? undefined : `${program} *`;
}

/**
 * May this allow rule approve an unjailed call of `cap`? Only when it names the capability itself
 * (no `*`, no `group:`) and its pattern starts with a literal program word: `git status *` yes,
 * `*`, `g*`, a missing pattern, or `permission = "*"` no.
 */
export function isScopedAllowFor(rule: Rule, cap: Pick<Capability, 'name'>): boolean {
  if (rule.action !== 'allow' || rule.permission !== cap.name || rule.pattern === undefined) return false;
  // Exact argument JSON (what a command preset's "always" stores) is as narrow as a rule gets.
  if (rule.pattern.startsWith('{')) return !/(^|[^\\])[*?]/.test(rule.pattern);
  return /^[A-Za-z0-9_][A-Za-z0-9_.+-]*( |$)/.test(rule.pattern);
}
