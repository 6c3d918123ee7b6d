/**
 * Which folders may never become a grant (`unsafe_root`, reference §2.3): `/`, the home folder and
 * its ancestors, FERMIX_HOME and its ancestors or its internals, OS roots, protected paths. Checked
 * before anyone is asked to confirm, so the owner is never shown a prompt that would be a mistake
 * to approve.
 */
import path from 'node:path';
import { FermixError } from '../core/errors.js';
import { isWithin } from './real-path.js';

/** Folders that hold the whole system or every user; their subfolders (e.g. /srv/site) are fine. */
const OS_TOP_LEVEL = new Set([
  '/', '/etc', '/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/var', '/proc', '/sys', '/dev',
  '/boot', '/opt', '/srv', '/tmp', '/run', '/mnt', '/media', '/home', '/root', '/snap', '/private', '/System',
  '/Library', '/Applications', '/Users', '/Volumes', '/cores', '/nix',
]);

/** OS roots whose every subfolder is system territory too. */
const OS_TREES = ['/etc', '/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/boot', '/proc', '/sys', '/dev', '/System', '/private/etc'];

export interface GrantFacts {
  real: string;
  lexical: string;
  home: string;
  fermixHome: string;
  workspace: string;
  skillsDir: string | undefined;
  isProtected: (p: string) => string | undefined;
  isBlocked: (p: string) => string | undefined;
}

export function grantRefusal(facts: GrantFacts): FermixError | undefined {
  const why = unsafeReason(facts);
  if (why !== undefined) {
    return new FermixError({
      code: 'unsafe_root',
      message: `Refusing to grant ${facts.real}: ${why}.`,
      hint: 'Grant a specific project folder instead, e.g. `fermix grant path ~/projects/<name>`.',
      data: { reason: 'unsafe_root', path: facts.real },
    });
  }
  const blockedBy = facts.isBlocked(facts.real);
  if (blockedBy !== undefined) {
    return new FermixError({
      code: 'sandbox_denied',
      message: `Refusing to grant ${facts.real}: it is inside the blocked root ${blockedBy}, and blocked roots win over grants.`,
      hint: `Remove ${blockedBy} from [sandbox] blocked_roots in config.toml first.`,
      data: { reason: 'blocked_root', path: facts.real, matched: blockedBy },
    });
  }
  return undefined;
}

function unsafeReason(f: GrantFacts): string | undefined {
  for (const p of new Set([f.real, f.lexical])) {
    const lower = p.toLowerCase();
    if (p === '/') return 'it is the filesystem root';
    if (OS_TOP_LEVEL.has(p) || [...OS_TOP_LEVEL].some((r) => r.toLowerCase() === lower)) return 'it is an operating-system root';
    if (OS_TREES.some((r) => isWithin(p, r, true))) return 'it is inside an operating-system root';
    if (isWithin(f.home, p, true)) return p === f.home ? 'it is your whole home folder' : 'it contains your home folder';
    if (isWithin(f.fermixHome, p, true)) return p === f.fermixHome ? 'it is FERMIX_HOME' : 'it contains FERMIX_HOME';
    const protectedBy = f.isProtected(p);
    if (protectedBy !== undefined) return `it is protected (${protectedBy})`;
    const insideFermix = isWithin(p, f.fermixHome, true);
    const inSandboxArea = isWithin(p, f.workspace) || (f.skillsDir !== undefined && isWithin(p, f.skillsDir));
    // Elsewhere in FERMIX_HOME live plugin code, the database, tokens: write access there is a takeover.
    if (insideFermix && !inSandboxArea) return "it is inside FERMIX_HOME (Fermix's own state)";
  }
  return undefined;
}

/** Exposed for hardline, which refuses recursive deletes of the same places. */
export function isOsTopLevel(p: string): boolean {
  return OS_TOP_LEVEL.has(path.resolve(p));
}
