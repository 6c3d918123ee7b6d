/**
 * The scopes an "Always allow" answer offers (issue 15 item 3): for a shell command its program and
 * subcommand (`git status *`) or exactly this command; for a file tool this file, this folder or every
 * call of the tool; for any other tool these exact arguments or every call. Each scope is the exact rule
 * it saves plus that rule in plain words, and the rule matches later calls of that scope and no others:
 * a command pattern is offered only for ONE simple command (the shell parser must agree — see
 * `simpleCommand`), and allow patterns never cross shell control characters (rules.ts).
 *
 * The first scope is the default: what the A key and a bare "always" answer save.
 */
import type { Capability } from './capability.js';
import { canonicalArgs, escapeGlob, type Rule } from './rules.js';
import { runsCommands, scopedCommandPattern } from './unjailed.js';

export const APPROVAL_SCOPE_IDS = ['command', 'exact', 'file', 'folder', 'tool'] as const;
export type ApprovalScopeId = (typeof APPROVAL_SCOPE_IDS)[number];

export interface ApprovalScope {
  id: ApprovalScopeId;
  /** Exactly the rule this scope saves. */
  rule: Rule;
  /** The rule in words, as the card and the CLI show it. */
  words: string;
}

export interface ScopeOptions {
  /** The command would run without the OS jail: the rules carry the flag, and "every call" is not offered. */
  unjailed?: boolean;
  /**
   * True when the shell parser reads `command` as one plain command (no list, pipeline, substitution,
   * expansion, redirect or assignment). Injected by the daemon (main/sandbox/command-shape.ts): this
   * folder is common code and cannot load the parser. Without it only the conservative character check
   * of scopedCommandPattern decides.
   */
  simpleCommand?: (command: string) => boolean;
}

const PATH_FIELDS = new Set(['path', 'file_path', 'file', 'working_dir']);

function rule(cap: Capability, pattern: string | undefined, unjailed: boolean): Rule {
  return { permission: cap.name, ...(pattern === undefined ? {} : { pattern }), action: 'allow', source: 'always-answer', ...(unjailed ? { unjailed: true } : {}) };
}

/** The folder part of a normalized path, or undefined when a folder scope would be the whole tree. */
function folderOf(path: string): string | undefined {
  const slash = path.lastIndexOf('/');
  if (slash <= 0) return undefined;
  return path.slice(0, slash);
}

export function offeredScopes(cap: Capability, args: Record<string, unknown>, options: ScopeOptions = {}): ApprovalScope[] {
  const unjailed = options.unjailed === true;
  const canonical = canonicalArgs(cap, args);
  const scopes: ApprovalScope[] = [];
  if (runsCommands(cap) && canonical.field === 'command') {
    const command = canonical.value.trim();
    const pattern = scopedCommandPattern(command);
    // Both readers must agree it is one plain command: the pattern then allows only that program.
    if (pattern !== undefined && (options.simpleCommand?.(command) ?? true)) {
      const head = pattern.slice(0, -2);
      scopes.push({ id: 'command', rule: rule(cap, pattern, unjailed), words: `Commands starting with “${head}” (${pattern})` });
    }
    scopes.push({ id: 'exact', rule: rule(cap, escapeGlob(canonical.value), unjailed), words: `Exactly this command: ${canonical.value}` });
    // No "every call" scope for a tool that runs commands: that would allow any command at all.
    return scopes;
  }
  if (canonical.field !== null && PATH_FIELDS.has(canonical.field)) {
    scopes.push({ id: 'file', rule: rule(cap, escapeGlob(canonical.value), unjailed), words: `This file only: ${canonical.value}` });
    const folder = folderOf(canonical.value);
    if (folder !== undefined) scopes.push({ id: 'folder', rule: rule(cap, `${escapeGlob(folder)}/*`, unjailed), words: `Any file in ${folder} and its subfolders` });
  } else {
    scopes.push({ id: 'exact', rule: rule(cap, escapeGlob(canonical.value), unjailed), words: canonical.field === null ? 'Exactly these arguments' : `Exactly this ${canonical.field}: ${canonical.value}` });
  }
  if (!unjailed && !runsCommands(cap)) scopes.push({ id: 'tool', rule: rule(cap, undefined, unjailed), words: `Every ${cap.name} call, whatever the arguments` });
  return scopes;
}
