/**
 * The sandbox's path gate (reference §2.3). Every decision is taken on the *physical* path, so a
 * symlink cannot lead out of a root; refusals are checked on the lexical path as well, so a symlink
 * cannot lead *into* a protected path either. Order: protected → blocked → inside a root.
 * Denials compare case-insensitively, allowances exactly: a case mismatch can only refuse more.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { FermixError } from '../core/errors.js';
import { createProtectedMatcher, existingProtectedPaths, type ProtectedEntry, type ProtectedMatcher } from './protected-paths.js';
import { expandHome, isWithin, realRoot, resolveRealPath } from './real-path.js';
import type { SandboxMode } from './sandbox-config.js';
import { grantRefusal } from './grant-check.js';

export type DenyReason = 'outside_root' | 'protected_path' | 'blocked_root' | 'too_many_symlinks' | 'unsafe_root';
export type Access = 'read' | 'write';

export interface PathPolicyOptions {
  mode: SandboxMode;
  home: string;
  fermixHome: string;
  workspace: string;
  allowedRoots?: string[];
  blockedRoots?: string[];
  /** Extra protected paths, on top of the defaults in protected-paths.ts. */
  protectedPaths?: string[];
  /** Standard mode's skills root; defaults to `$FERMIX_HOME/skills`. */
  skillsDir?: string;
  /** The folder the daemon started in: a standard-mode root when strictly inside the home folder. */
  daemonCwd?: string;
  /** Called for every refusal by checkRead/checkWrite: the trace writer records it (sandbox_event.jsonl). */
  onDenied?: (decision: PathDecision) => void;
}

export interface CheckContext {
  /** Relative paths resolve against this (the tool's working dir); defaults to the workspace. */
  baseDir?: string;
  /** The request's cwd (`fermix ask`, ACP). Pass it only on a trusted local operator turn. */
  requestCwd?: string;
}

export interface PathDecision {
  allowed: boolean;
  access: Access;
  input: string;
  realPath?: string;
  exists: boolean;
  reason?: DenyReason;
  /** The root that allowed it, or the protected path / blocked root / looping link that refused it. */
  matched?: string;
  error?: FermixError;
}

export interface GrantCheck {
  path: string;
  alreadyAllowed: boolean;
}

export interface PathPolicy {
  readonly mode: SandboxMode;
  checkRead(input: string, context?: CheckContext): string;
  checkWrite(input: string, context?: CheckContext): string;
  decide(input: string, access: Access, context?: CheckContext): PathDecision;
  /** For `fermix sandbox explain PATH`. */
  explain(input: string, context?: CheckContext): string;
  /** Refuses unsafe grants (`unsafe_root`) before anyone is asked to confirm one. */
  checkGrant(root: string): GrantCheck;
  /** The physical roots in effect (the jail binds these read-write). */
  roots(context?: CheckContext): string[];
  /** Existing protected paths and blocked roots, for the jail's mount plan. */
  jailMounts(): { hidden: string[]; readOnly: string[] };
}

export function createPathPolicy(options: PathPolicyOptions): PathPolicy {
  const home = path.resolve(options.home);
  const fermixHome = path.resolve(options.fermixHome);
  const realHome = realRoot(home, home) ?? home;
  const realFermixHome = realRoot(fermixHome, home) ?? fermixHome;
  // When home or FERMIX_HOME is itself a symlink, protect both spellings.
  const matchers: ProtectedMatcher[] = [createProtectedMatcher({ home: realHome, fermixHome: realFermixHome, extra: options.protectedPaths })];
  if (realHome !== home || realFermixHome !== fermixHome) {
    matchers.push(createProtectedMatcher({ home, fermixHome, extra: options.protectedPaths }));
  }
  const matchProtected = (p: string, access: Access): ProtectedEntry | undefined =>
    matchers.map((m) => m.match(p, access)).find((e) => e !== undefined);
  const resolveAll = (list: string[]) => list.map((r) => realRoot(r, home)).filter((r): r is string => r !== undefined);
  const blocked = () => resolveAll(options.blockedRoots ?? []);
  const blockedLexical = (options.blockedRoots ?? []).map((r) => path.resolve(expandHome(r, home)));

  const strictlyInHome = (p: string | undefined) => p !== undefined && p !== realHome && isWithin(p, realHome);

  const roots = (context: CheckContext = {}): string[] => {
    const list = [options.workspace, ...(options.allowedRoots ?? [])];
    if (options.mode === 'standard') list.push(options.skillsDir ?? path.join(fermixHome, 'skills'));
    if (options.mode === 'open') list.push(home, options.skillsDir ?? path.join(fermixHome, 'skills'));
    const resolved = resolveAll(list);
    if (options.mode === 'standard') {
      // The home folder itself is never a standard root; its strict subfolders may be.
      for (const cwd of [options.daemonCwd, context.requestCwd]) {
        const real = cwd === undefined ? undefined : realRoot(cwd, home);
        if (strictlyInHome(real)) resolved.push(real as string);
      }
    }
    return [...new Set(resolved)];
  };

  const decide = (input: string, access: Access, context: CheckContext = {}): PathDecision => {
    if (input.length === 0 || input.includes('\0')) {
      const error = new FermixError({
        code: 'invalid_path',
        message: input.length === 0 ? 'Path is empty.' : 'Path contains a NUL byte.',
        hint: 'Pass a plain file path, absolute or relative to the working directory.',
      });
      return { allowed: false, access, input, exists: false, error };
    }
    const baseDir = path.resolve(expandHome(context.baseDir ?? options.workspace, home));
    const expanded = expandHome(input, home);
    const lexical = path.resolve(baseDir, expanded);
    const resolved = resolveRealPath(expanded, baseDir);
    if (!resolved.ok) {
      return deny({ access, input, exists: true, reason: 'too_many_symlinks', matched: resolved.at }, lexical);
    }
    const real = resolved.path;
    const base = { access, input, realPath: real, exists: resolved.exists };
    const hit = matchProtected(real, access) ?? matchProtected(lexical, access);
    if (hit) return deny({ ...base, reason: 'protected_path', matched: hit.label }, real);
    const blockedReal = blocked();
    const blockedHit = blockedReal.find((b) => isWithin(real, b, true)) ?? blockedLexical.find((b) => isWithin(lexical, b, true));
    if (blockedHit) return deny({ ...base, reason: 'blocked_root', matched: blockedHit }, real);
    const root = roots(context).find((r) => isWithin(real, r));
    if (root === undefined) return deny({ ...base, reason: 'outside_root' }, real);
    return { ...base, allowed: true, matched: root };
  };

  const deny = (decision: Omit<PathDecision, 'allowed'> & { reason: DenyReason }, shown: string): PathDecision => {
    const full: PathDecision = { ...decision, allowed: false };
    full.error = denialError(full, shown, options.workspace, (dir) => safeGrant(dir));
    return full;
  };

  const check = (input: string, access: Access, context?: CheckContext): string => {
    const decision = decide(input, access, context);
    if (!decision.allowed) {
      options.onDenied?.(decision);
      throw decision.error as FermixError;
    }
    return decision.realPath as string;
  };

  const checkGrant = (root: string): GrantCheck => {
    const real = realRoot(root, home);
    const lexical = path.resolve(expandHome(root, home));
    const refusal = grantRefusal({
      real: real ?? lexical, lexical, home: realHome, fermixHome: realFermixHome,
      workspace: realRoot(options.workspace, home) ?? options.workspace,
      skillsDir: realRoot(options.skillsDir ?? path.join(fermixHome, 'skills'), home),
      isProtected: (p) => matchProtected(p, 'write')?.label,
      isBlocked: (p) => blocked().find((b) => isWithin(p, b, true)),
    });
    if (refusal) throw refusal;
    const target = real ?? lexical;
    return { path: target, alreadyAllowed: roots().some((r) => isWithin(target, r)) };
  };

  const safeGrant = (dir: string): boolean => {
    try {
      checkGrant(dir);
      return true;
    } catch {
      return false;
    }
  };

  return {
    mode: options.mode,
    checkRead: (input, context) => check(input, 'read', context),
    checkWrite: (input, context) => check(input, 'write', context),
    decide,
    explain: (input, context) => explainDecision(decide(input, 'read', context), decide(input, 'write', context), options.mode),
    checkGrant,
    roots,
    jailMounts: () => {
      const parts = matchers.map((m, i) => existingProtectedPaths(m, i === 0 ? realFermixHome : fermixHome));
      const hidden = [...parts.flatMap((p) => p.hidden), ...blocked()];
      return { hidden: [...new Set(hidden)], readOnly: [...new Set(parts.flatMap((p) => p.readOnly))] };
    },
  };
}

function denialError(d: PathDecision, shown: string, workspace: string, canGrant: (dir: string) => boolean): FermixError {
  const data = { reason: d.reason, path: d.realPath ?? shown, matched: d.matched, access: d.access };
  switch (d.reason) {
    case 'protected_path':
      return new FermixError({
        code: 'sandbox_denied',
        message: `Path is protected and refused in every sandbox mode: ${shown} (${d.matched}).`,
        hint: `Protected paths hold secrets or Fermix's own state and cannot be granted; copy what you need into the workspace (${workspace}).`,
        data,
      });
    case 'blocked_root':
      return new FermixError({
        code: 'sandbox_denied',
        message: `Path is inside a blocked root: ${shown} (blocked by ${d.matched}).`,
        hint: `Remove ${d.matched} from [sandbox] blocked_roots in config.toml if it should be reachable.`,
        data,
      });
    case 'too_many_symlinks':
      return new FermixError({
        code: 'sandbox_denied',
        message: `Path has too many levels of symbolic links: ${d.input}.`,
        hint: `Fix the symlink loop at ${d.matched} (inspect it with \`ls -l ${d.matched}\`), then try again.`,
        data,
      });
    default: {
      const dir = suggestedFolder(shown);
      const grantable = canGrant(dir);
      return new FermixError({
        code: 'sandbox_denied',
        message: `Path is outside the sandbox roots: ${shown}.`,
        hint: grantable
          ? `Run \`fermix grant path ${dir}\`, or ask the owner with request_directory_access.`
          : `${dir} cannot be granted (unsafe_root); copy what you need into the workspace (${workspace}).`,
        data: { ...data, suggested_grant: grantable ? dir : undefined },
      });
    }
  }
}

/** Suggest granting the folder itself, or the folder a file (existing or not) lives in. */
function suggestedFolder(p: string): string {
  try {
    if (statSync(p).isDirectory()) return p;
  } catch {
    // Not there yet: its parent is what a grant would need.
  }
  return path.dirname(p);
}

function explainDecision(read: PathDecision, write: PathDecision, mode: SandboxMode): string {
  const lines = [`${read.input}`];
  if (read.realPath && read.realPath !== read.input) lines.push(`  real path: ${read.realPath}${read.exists ? '' : ' (does not exist yet)'}`);
  lines.push(`  sandbox mode: ${mode}`);
  for (const d of [read, write]) {
    if (d.allowed) lines.push(`  ${d.access}: allowed (inside root ${d.matched})`);
    else lines.push(`  ${d.access}: refused (${d.reason ?? d.error?.code}) — ${d.error?.message ?? ''}`);
  }
  const refusal = write.allowed ? read : write;
  if (!refusal.allowed && refusal.error?.hint) lines.push(`  fix: ${refusal.error.hint}`);
  return lines.join('\n');
}
