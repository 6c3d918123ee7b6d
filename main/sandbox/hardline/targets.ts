/**
 * Is a word the filesystem root, the home folder (or an ancestor), FERMIX_HOME, an OS top-level
 * folder or a protected root — or a glob that could match one (`/e*`, `/[e]tc`, `/u?r`, `~/.s*`)?
 * `$VAR/` counts as `/`: an unset variable makes `rm -rf "$VAR/"` a delete of `/` (the Steam
 * uninstaller bug). Glob matching is linear in the word: a pattern segment is compared only with
 * the few names at that depth of the protected tree, each comparison bounded by the name's length.
 */
import path from 'node:path';
import { defaultProtectedEntries } from '../protected-paths.js';
import { isWithin } from '../real-path.js';
import { SUBST, VAR, type Word } from './model.js';

export interface TargetContext {
  home: string;
  fermixHome?: string;
  cwd?: string;
  isProtected?: (absolutePath: string) => boolean;
}

const OS_NAMES = [
  'etc', 'usr', 'bin', 'sbin', 'lib', 'lib32', 'lib64', 'libx32', 'var', 'proc', 'sys', 'dev', 'boot', 'opt', 'srv',
  'tmp', 'run', 'mnt', 'media', 'home', 'root', 'snap', 'private', 'System', 'Library', 'Applications', 'Users',
  'Volumes', 'cores', 'nix',
];

export function isCatastrophicTarget(input: Word | string, context: TargetContext): boolean {
  const word: Word = typeof input === 'string' ? { text: input, dynamic: false, fetched: false, procSubst: false } : input;
  let t = word.text;
  if (t === '' || t.includes(SUBST)) return false;
  if (isOtherUsersHome(t)) return true;
  if (t.startsWith(VAR)) {
    const rest = t.slice(VAR.length);
    return rest !== '' && !rest.includes(VAR) && stripGlobs(rest) === '/';
  }
  if (t.includes(VAR)) return false;
  if (!t.startsWith('/')) {
    if (context.cwd === undefined) return false;
    // A plain name in the working directory (`rm -rf build`), the common case: no path arithmetic.
    if (word.pattern === undefined && isPlainName(t)) return plainNameIsCatastrophic(t, context.cwd, context);
    t = path.posix.join(context.cwd, t);
  }
  if (isCatastrophicPath(needsNormalising(t) ? stripGlobs(t) : t, context)) return true;
  if (word.pattern === undefined) return false;
  const pattern = word.pattern.startsWith('/') ? word.pattern : `${escapeGlob(context.cwd ?? '')}/${word.pattern}`;
  return globHitsProtected(pattern, context);
}

/** `~user`, `~user/`, `~user/*`: another account's whole home folder. */
function isOtherUsersHome(t: string): boolean {
  if (t[0] !== '~' || !/^[A-Za-z_]$/.test(t[1] ?? '')) return false;
  let end = t.length;
  while (end > 2 && (t[end - 1] === '*' || t[end - 1] === '.')) end -= 1;
  if (t[end - 1] === '/') end -= 1;
  for (let k = 2; k < end; k += 1) if (!/[\w.-]/.test(t[k])) return false;
  return true;
}

function isCatastrophicPath(target: string, context: TargetContext): boolean {
  if (target === '/' || OS_TOP_LEVEL.has(target)) return true;
  if (isWithin(context.home, target)) return true;
  if (context.fermixHome !== undefined && isWithin(context.fermixHome, target)) return true;
  // A protected folder, something inside one, or a folder that holds one (`~/.config` holds `~/.config/gh`).
  if (inProtectedTree(target, context)) return true;
  return context.isProtected?.(target) ?? false;
}

const OS_TOP_LEVEL = new Set(OS_NAMES.map((name) => `/${name}`));

/** Is `target` a node of the protected tree (a protected folder or an ancestor of one) or below a protected one? */
function inProtectedTree(target: string, context: TargetContext): boolean {
  let node = protectedTree(context);
  let from = 1;
  while (from <= target.length) {
    let to = target.indexOf('/', from);
    if (to === -1) to = target.length;
    if (to > from) {
      if (node.protectsBelow) return true;
      const child = node.children.get(target.slice(from, to));
      if (child === undefined) return false;
      node = child;
    }
    from = to + 1;
  }
  return true;
}

interface CwdFacts {
  cwd: string;
  /** The protected-tree node at the working directory, if it is one. */
  node: TreeNode | undefined;
  /** The working directory is inside a folder protected with everything below it. */
  below: boolean;
}

let cwdFacts: CwdFacts | undefined;

function factsFor(cwd: string, context: TargetContext): CwdFacts {
  if (cwdFacts !== undefined && cwdFacts.cwd === cwd && last?.home === context.home && last.fermixHome === context.fermixHome) return cwdFacts;
  let node: TreeNode | undefined = protectedTree(context);
  let below = false;
  for (const part of cwd.split('/')) {
    if (part === '' || node === undefined) continue;
    if (node.protectsBelow) {
      below = true;
      break;
    }
    node = node.children.get(part);
  }
  if (node?.protectsBelow) below = true;
  cwdFacts = { cwd, node, below };
  return cwdFacts;
}

function plainNameIsCatastrophic(name: string, cwd: string, context: TargetContext): boolean {
  const facts = factsFor(cwd, context);
  if (facts.below || facts.node?.children.has(name) === true) return true;
  const target = cwd === '/' ? `/${name}` : `${cwd}/${name}`;
  if (cwd === '/' && OS_TOP_LEVEL.has(target)) return true;
  if (isWithin(context.home, target) || (context.fermixHome !== undefined && isWithin(context.fermixHome, target))) return true;
  return context.isProtected?.(target) ?? false;
}

function isPlainName(t: string): boolean {
  return t !== '.' && t !== '..' && !t.includes('/') && !t.includes('*') && t !== '';
}

function needsNormalising(t: string): boolean {
  return t.includes('//') || t.includes('/./') || t.includes('/../') || t.endsWith('/.') || t.endsWith('/..') || t.includes('*') || (t.endsWith('/') && t !== '/');
}

/**
 * `/`, `//`, `/.`, `/*`, `/./*`, `/..` all mean the root: normalise and drop trailing glob segments
 * (`*`, `**`, `.*`, `*.*`). One pass from the end: linear however many segments there are.
 */
export function stripGlobs(p: string): string {
  const t = path.posix.normalize(p);
  let end = t.length;
  while (end > 1 && t[end - 1] === '/') end -= 1;
  for (;;) {
    const slash = t.lastIndexOf('/', end - 1);
    if (slash === -1 || end === 0) break;
    if (!isGlobSegment(t, slash + 1, end)) break;
    end = slash;
    while (end > 1 && t[end - 1] === '/') end -= 1;
  }
  const kept = t.slice(0, end);
  return kept === '' ? '/' : path.posix.normalize(kept);
}

function isGlobSegment(t: string, from: number, to: number): boolean {
  const n = to - from;
  if (n === 0) return false;
  if (n === 1) return t[from] === '*' || t[from] === '.';
  if (n === 2 && t[from] === '.' && t[from + 1] === '*') return true;
  if (n === 3 && t.slice(from, to) === '*.*') return true;
  for (let k = from; k < to; k += 1) if (t[k] !== '*') return false;
  return true;
}

function escapeGlob(s: string): string {
  return s.replace(/[*?[\]\\{},]/g, '\\$&');
}

// --- glob against the protected tree -------------------------------------------------------

interface TreeNode {
  children: Map<string, TreeNode>;
  /** Deleting this folder (or anything above it) is catastrophic. */
  protectedHere: boolean;
  /** Everything below it is protected too (`~/.ssh/…`, `/etc/…`), not only the folder (`/tmp`, `/home`). */
  protectsBelow: boolean;
}

const trees = new Map<string, TreeNode>();
let last: { home: string; fermixHome: string | undefined; tree: TreeNode } | undefined;

function protectedTree(context: TargetContext): TreeNode {
  if (last !== undefined && last.home === context.home && last.fermixHome === context.fermixHome) return last.tree;
  const key = `${context.home}\u0000${context.fermixHome ?? ''}`;
  let tree = trees.get(key);
  if (tree !== undefined) {
    last = { home: context.home, fermixHome: context.fermixHome, tree };
    return tree;
  }
  tree = { children: new Map(), protectedHere: true, protectsBelow: false };
  const add = (absolute: string, below: boolean) => {
    let node = tree as TreeNode;
    for (const part of absolute.split('/').filter(Boolean)) {
      let child = node.children.get(part);
      if (child === undefined) {
        child = { children: new Map(), protectedHere: false, protectsBelow: false };
        node.children.set(part, child);
      }
      node = child;
    }
    node.protectedHere = true;
    if (below) node.protectsBelow = true;
  };
  for (const name of OS_NAMES) add(`/${name}`, false);
  add(context.home, false);
  if (context.fermixHome !== undefined) {
    add(context.fermixHome, false);
    for (const entry of defaultProtectedEntries({ home: context.home, fermixHome: context.fermixHome })) add(entry.path, true);
  }
  if (trees.size > 16) trees.clear();
  trees.set(key, tree);
  last = { home: context.home, fermixHome: context.fermixHome, tree };
  return tree;
}

/**
 * Could the absolute glob `pattern` match a protected folder or one of its ancestors? A segment
 * after which only trailing `*` segments follow deletes everything below, so it counts too.
 */
function globHitsProtected(pattern: string, context: TargetContext): boolean {
  const segments = splitPattern(pattern);
  let level: TreeNode[] = [protectedTree(context)];
  for (let s = 0; s < segments.length; s += 1) {
    const segment = segments[s];
    if (segment === '' || segment === '.') continue;
    if (segment === '..') return false; // rare in globs; the plain-path check above already normalised
    const atoms = compileSegment(segment);
    const next: TreeNode[] = [];
    for (const node of level) {
      for (const [name, child] of node.children) {
        if (atoms !== undefined && matchAtoms(atoms, name)) next.push(child);
        else if (atoms === undefined && unescapePath(segment) === name) next.push(child);
      }
    }
    if (next.length === 0) {
      // A custom protected root (isProtected) that is not in our tree: check the literal prefix.
      return false;
    }
    const rest = segments.slice(s + 1).filter((x) => x !== '' && x !== '.');
    if (rest.every((x) => /^\*+$/.test(x))) {
      if (next.some((n) => n.protectedHere || rest.length > 0)) return true;
    }
    level = next;
  }
  return level.some((n) => n.protectedHere);
}

function splitPattern(p: string): string[] {
  const out: string[] = [];
  let cur = '';
  let inBracket = false;
  for (let i = 0; i < p.length; i += 1) {
    const c = p[i];
    if (c === '\\') {
      cur += c + (p[i + 1] ?? '');
      i += 1;
    } else if (c === '[') {
      inBracket = true;
      cur += c;
    } else if (c === ']') {
      inBracket = false;
      cur += c;
    } else if (c === '/' && !inBracket) {
      out.push(cur);
      cur = '';
    } else cur += c;
  }
  out.push(cur);
  return out;
}

type Atom = { kind: 'lit'; ch: string } | { kind: 'any' } | { kind: 'star' } | { kind: 'set'; chars: string; negate: boolean };

/** Names in the tree are short: a segment with more fixed characters than this matches none. */
const MAX_NAME = 96;

function compileSegment(segment: string): Atom[] | undefined {
  const atoms: Atom[] = [];
  let fixed = 0;
  let hasGlob = false;
  let noCloser = false;
  for (let i = 0; i < segment.length; i += 1) {
    const c = segment[i];
    if (c === '\\') {
      atoms.push({ kind: 'lit', ch: segment[i + 1] ?? '' });
      i += 1;
      fixed += 1;
    } else if (c === '*') {
      hasGlob = true;
      if (atoms[atoms.length - 1]?.kind !== 'star') atoms.push({ kind: 'star' });
    } else if (c === '?') {
      hasGlob = true;
      atoms.push({ kind: 'any' });
      fixed += 1;
    } else if (c === '[') {
      const endBracket = noCloser ? -1 : segment.indexOf(']', i + 2);
      if (endBracket === -1) {
        noCloser = true; // no later `[` has a `]` either: do not search again
        atoms.push({ kind: 'lit', ch: '[' });
        fixed += 1;
        continue;
      }
      hasGlob = true;
      let body = segment.slice(i + 1, endBracket);
      const negate = body.startsWith('!') || body.startsWith('^');
      if (negate) body = body.slice(1);
      // A long or ranged bracket expression is treated as "any character": it can only match more.
      atoms.push(body.length > 64 || body.includes('-') || body.includes('[') ? { kind: 'any' } : { kind: 'set', chars: body.replace(/\\/g, ''), negate });
      fixed += 1;
      i = endBracket;
    } else {
      atoms.push({ kind: 'lit', ch: c });
      fixed += 1;
    }
    if (fixed > MAX_NAME) return [{ kind: 'lit', ch: '\u0000' }];
  }
  return hasGlob ? atoms : undefined;
}

/** Glob match of a short name: O(atoms × name). Leading dots are matched only explicitly, as sh does. */
function matchAtoms(atoms: Atom[], name: string): boolean {
  if (name.startsWith('.') && (atoms[0]?.kind !== 'lit' || (atoms[0] as { ch: string }).ch !== '.')) return false;
  let prev = new Uint8Array(name.length + 1);
  prev[0] = 1;
  for (const atom of atoms) {
    const cur = new Uint8Array(name.length + 1);
    if (atom.kind === 'star') {
      let reach = 0;
      for (let k = 0; k <= name.length; k += 1) {
        if (prev[k]) reach = 1;
        cur[k] = reach;
      }
    } else {
      for (let k = 1; k <= name.length; k += 1) {
        if (!prev[k - 1]) continue;
        const ch = name[k - 1];
        const ok = atom.kind === 'any' || (atom.kind === 'lit' && atom.ch === ch) || (atom.kind === 'set' && atom.chars.includes(ch) !== atom.negate);
        if (ok) cur[k] = 1;
      }
    }
    prev = cur;
  }
  return prev[name.length] === 1;
}

function unescapePath(s: string): string {
  return s.replace(/\\(.)/g, '$1');
}
