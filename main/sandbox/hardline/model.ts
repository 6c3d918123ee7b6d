import type { Unwrapped } from './unwrap.js';

/**
 * What hardline judges, whichever way it was read (the tree-sitter walk in tree.ts or the
 * conservative linear scan in fallback.ts): pipelines of simple commands with their words after
 * quote removal, their redirections, the literal text fed to their stdin, and the loops and
 * functions around them.
 */

/** Stands in for the unknown output of a command substitution inside a word. */
export const SUBST = '\u0000s\u0000';
/** Stands in for the unknown value of a variable. */
export const VAR = '\u0000v\u0000';

export interface Word {
  /** The value after quote removal; `$HOME` and known positional parameters are filled in. */
  text: string;
  /** Glob form of the word (quoted specials escaped with `\`) when it has unquoted `* ? [` or braces. */
  pattern?: string;
  /** Contains a variable or a substitution whose value is unknown. */
  dynamic: boolean;
  /** Contains a command substitution or process substitution whose commands fetch from the network. */
  fetched: boolean;
  /** A process substitution `<(…)`: the word is a /dev/fd path fed by the inner commands. */
  procSubst: boolean;
  /** The pipelines of the substitutions inside the word (`kill $(pgrep .)`). */
  sources?: Pipeline[];
}

export interface Redirect {
  /** `>`, `>>`, `>|`, `&>`, `&>>`, `<>`, `<`, `>&`, `<&`. */
  op: string;
  target: Word;
}

/** Text that reaches a command's standard input: a here-doc, a here-string, `echo …|`. */
export interface Feed {
  text: string;
  /** It comes (maybe through filters) from a network fetcher. */
  fetched: boolean;
}

export interface Cmd {
  words: Word[];
  redirects: Redirect[];
  /** Here-docs and here-strings attached to this command. */
  feeds: Feed[];
  excerpt: string;
  /** A compound pipeline stage (`{ curl …; } | sh`) whose output comes from a network fetcher. */
  opaqueOutputFetched?: boolean;
  /** The words with wrappers removed, computed once by the judge. */
  unwrapped?: Unwrapped;
  /** Known to be a command no rule is about (set by the reader that built it). */
  plain?: boolean;
}

export interface Pipeline {
  stages: Cmd[];
}

export interface Loop {
  /** `while true`, `while :`, `until false`, `for ((;;))`, `while [ 1 ]`. */
  infinite: boolean;
  /** A command inside is sent to the background (`&`). */
  spawns: boolean;
  /** A `wait` inside the body collects what it spawned. */
  waits: boolean;
  excerpt: string;
}

export interface FunctionDef {
  name: string;
  /** The body calls the function itself in a pipeline, in the background or in a substitution. */
  forksItself: boolean;
  excerpt: string;
}

export interface Script {
  /** In execution order; substitutions come before the command that holds them. */
  pipelines: Pipeline[];
  loops: Loop[];
  functions: FunctionDef[];
}

export function emptyScript(): Script {
  return { pipelines: [], loops: [], functions: [] };
}

export function literalWord(text: string): Word {
  return { text, dynamic: false, fetched: false, procSubst: false };
}

export function isLiteral(word: Word): boolean {
  return !word.dynamic && !word.text.includes('\u0000');
}
