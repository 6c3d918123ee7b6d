/**
 * Protected paths (reference §2.3): refused in every mode, even inside a grant. Matched
 * case-insensitively (macOS and Windows filesystems are, and a refusal should never hinge on case)
 * and with `.`/`-` suffix variants, so `memory.db-wal`, `config.toml.` and `config.toml.bak` are
 * refused along with the file itself.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';

export type ProtectedKind = 'secret' | 'fermix_state' | 'os_root' | 'persistence' | 'custom';

export interface ProtectedEntry {
  /** Absolute path (home and FERMIX_HOME already expanded). */
  path: string;
  /** Shown to people: `~/.ssh`, `$FERMIX_HOME/config.toml`, `/etc`. */
  label: string;
  kind: ProtectedKind;
  /** `write`: readable, but writing would let a command plant code the daemon or the login runs later. */
  scope: 'all' | 'write';
  /** Also refuse `<path>.…` and `<path>-…` (SQLite's -wal/-shm, editors' backups, Windows' trailing dot). */
  variants: boolean;
  /** Shadow it inside the OS jail (tmpfs over a folder, /dev/null over a file). OS roots stay visible read-only. */
  hideInJail: boolean;
}

const HOME_SECRETS = [
  '.ssh', '.aws', '.gnupg', '.docker', '.kube', '.codex', '.anthropic', '.azure', '.config/fermix',
  '.config/gh', '.config/gcloud', '.claude.json', '.claude/.credentials.json', '.netrc', '.git-credentials',
  '.npmrc', '.pypirc', '.password-store', '.local/share/keyrings', 'Library/Keychains',
  // Credential files of the usual tools (hardening issue, item 9); `.env*` is a pattern, below.
  '.pgpass', '.my.cnf', '.s3cfg', '.boto', '.vault-token', '.cargo/credentials', '.gem/credentials',
  '.terraform.d/credentials.tfrc.json', '.config/hub', '.config/rclone',
  // Password-manager stores and their CLIs' sessions: pass/gopass, 1Password, Bitwarden, KeePassXC.
  '.local/share/gopass', '.config/gopass', '.config/op', '.op', '.config/1Password', '.config/Bitwarden',
  '.config/Bitwarden CLI', '.config/keepassxc', 'Library/Application Support/1Password',
  'Library/Group Containers/2BUA8C4S2C.com.1password', 'Library/Application Support/Bitwarden',
  'Library/Application Support/Bitwarden CLI', 'Library/Application Support/KeePassXC',
  '.mozilla', '.config/google-chrome', '.config/chromium', '.config/BraveSoftware',
  // Shell rc files can export tokens; history files hold whatever was typed.
  '.bashrc', '.bash_profile', '.bash_login', '.bash_logout', '.profile', '.zshrc', '.zshenv', '.zprofile',
  '.zlogin', '.config/fish', '.bash_history', '.zsh_history', '.python_history', '.node_repl_history',
  '.psql_history', '.mysql_history', '.sqlite_history',
];

/** Anything written here runs later without asking: at login, or as Fermix plugin code. */
const HOME_PERSISTENCE = ['.config/autostart', '.config/systemd', 'Library/LaunchAgents'];

const FERMIX_STATE = [
  'config.toml', 'auth.json', 'chatgpt_host.json', 'secrets', 'secret_key_base', 'setup-token',
  'setup-launch-token.json', 'acp_identities', 'mobile', 'plugins/run', 'browser/profiles', 'bootstrap',
  'memory.db', 'fermix.db', 'grants', 'logs', 'traces', 'run', '.previous', 'daemon.sock', 'realtime.sock',
  'companion.sock', 'acp.sock', 'browser_bridge.sock',
  // Chat attachments: the daemon feeds their bytes to the model, so a file swapped for a symlink
  // there (open mode: home is a root) would hand it ~/.ssh/id_rsa on a later turn.
  'attachments',
];

const OS_ROOTS = [
  '/etc', '/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/boot', '/proc', '/sys', '/dev',
  '/System', '/Library', '/private/etc',
];

/** Inside OS roots (already refused to file tools) but readable by a command unless the jail hides them. */
const OS_SECRETS = [
  '/etc/shadow', '/etc/gshadow', '/etc/sudoers', '/etc/sudoers.d', '/etc/ssh', '/var/run/docker.sock',
  '/run/docker.sock', '/root/.ssh',
];

/** Any SQLite file directly in FERMIX_HOME is the daemon's database, whatever the store names it. */
const DATABASE_FILE = /\.(db|sqlite|sqlite3)([.-].*)?$/i;

/**
 * `~/.env*` (`.env`, `.env.local`, `.envrc`, …) directly in home: dotenv files there are the user's
 * global secrets. Project `.env` files inside the workspace or a grant are deliberately *not*
 * protected: the reference protects home-level paths only, and the shell tool works in the same
 * roots (the jail binds them read-write), so refusing them to file_read would add friction without
 * keeping the secret from a command. Keeping secrets out of results is the redactor's job.
 */
const HOME_DOTENV = /^\.env/i;

/** A KeePass database anywhere in home is a password store, whatever its folder. */
const KEEPASS_FILE = /\.kdbx$/i;

export interface ProtectedOptions {
  home: string;
  fermixHome: string;
  /** Extra protected paths from the caller; treated like secrets. */
  extra?: string[];
}

export function defaultProtectedEntries({ home, fermixHome, extra = [] }: ProtectedOptions): ProtectedEntry[] {
  const entries: ProtectedEntry[] = [];
  const add = (p: string, label: string, kind: ProtectedKind, scope: 'all' | 'write', variants: boolean, hideInJail: boolean) =>
    entries.push({ path: path.resolve(p), label, kind, scope, variants, hideInJail });
  for (const rel of HOME_SECRETS) add(path.join(home, rel), `~/${rel}`, 'secret', 'all', true, true);
  for (const rel of HOME_PERSISTENCE) add(path.join(home, rel), `~/${rel}`, 'persistence', 'write', true, false);
  for (const rel of FERMIX_STATE) add(path.join(fermixHome, rel), `$FERMIX_HOME/${rel}`, 'fermix_state', 'all', true, true);
  add(path.join(fermixHome, 'plugins/installed'), '$FERMIX_HOME/plugins/installed', 'persistence', 'write', true, false);
  for (const root of OS_ROOTS) add(root, root, 'os_root', 'all', false, false);
  for (const file of OS_SECRETS) add(file, file, 'secret', 'all', true, true);
  for (const p of extra) add(p, p, 'custom', 'all', true, true);
  return entries;
}

/** Does `candidate` (normalised absolute) fall under `entry`? */
export function entryMatches(candidate: string, entry: ProtectedEntry): boolean {
  const c = candidate.toLowerCase();
  const p = entry.path.toLowerCase();
  if (c === p || c.startsWith(`${p}/`)) return true;
  return entry.variants && (c.startsWith(`${p}.`) || c.startsWith(`${p}-`));
}

export interface ProtectedMatcher {
  readonly entries: readonly ProtectedEntry[];
  /** The first protected entry refusing `access` to `candidate`, or undefined. */
  match(candidate: string, access: 'read' | 'write'): ProtectedEntry | undefined;
}

export function createProtectedMatcher(options: ProtectedOptions): ProtectedMatcher {
  const entries = defaultProtectedEntries(options);
  const fermixHome = path.resolve(options.fermixHome).toLowerCase();
  const home = path.resolve(options.home).toLowerCase();
  const homeEntry = (candidate: string): ProtectedEntry | undefined => {
    const lower = candidate.toLowerCase();
    if (!lower.startsWith(`${home}/`)) return undefined;
    const rest = candidate.slice(home.length + 1);
    const top = rest.split('/')[0];
    if (HOME_DOTENV.test(top)) {
      return { path: path.join(options.home, top), label: `~/${top} (dotenv file)`, kind: 'secret', scope: 'all', variants: true, hideInJail: true };
    }
    if (KEEPASS_FILE.test(path.basename(rest))) {
      return { path: candidate, label: '~/…/*.kdbx (KeePass database)', kind: 'secret', scope: 'all', variants: false, hideInJail: true };
    }
    return undefined;
  };
  const databaseEntry = (candidate: string): ProtectedEntry | undefined => {
    const lower = candidate.toLowerCase();
    // Only the top level: a user's own .db files in the workspace are theirs to work on.
    const top = lower.startsWith(`${fermixHome}/`) ? lower.slice(fermixHome.length + 1).split('/')[0] : undefined;
    if (top === undefined || !DATABASE_FILE.test(top)) return undefined;
    return { path: candidate, label: '$FERMIX_HOME database file', kind: 'fermix_state', scope: 'all', variants: true, hideInJail: true };
  };
  return {
    entries,
    match(candidate, access) {
      const found = entries.find((e) => (access === 'write' || e.scope === 'all') && entryMatches(candidate, e));
      return found ?? databaseEntry(candidate) ?? homeEntry(candidate);
    },
  };
}

/**
 * The protected paths that exist right now, for the jail's mount plan: `hidden` are shadowed,
 * `readOnly` are re-bound read-only over a writable root. Parents are listed rather than the entries
 * probed, so case and suffix variants on disk (`MEMORY.DB-wal`) are found as well.
 */
export function existingProtectedPaths(matcher: ProtectedMatcher, fermixHome: string): { hidden: string[]; readOnly: string[] } {
  const dirs = new Set<string>([path.resolve(fermixHome)]);
  for (const e of matcher.entries) if (e.hideInJail || e.scope === 'write') dirs.add(path.dirname(e.path));
  const hidden = new Set<string>();
  const readOnly = new Set<string>();
  for (const dir of dirs) {
    for (const name of listDir(dir)) {
      const candidate = path.join(dir, name);
      const entries = matcher.entries.filter((e) => entryMatches(candidate, e));
      // The pattern entries (database files, ~/.env*) come from match(), not from the entry list.
      const pattern = matcher.match(candidate, 'read');
      if (entries.some((e) => e.hideInJail) || pattern?.hideInJail === true) hidden.add(candidate);
      else if (entries.some((e) => e.scope === 'write')) readOnly.add(candidate);
    }
  }
  return { hidden: dropNested([...hidden]), readOnly: dropNested([...readOnly]) };
}

function listDir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** A mount over a parent already covers its children; mounting both would only add failure points. */
export function dropNested(paths: string[]): string[] {
  const sorted = [...new Set(paths)].sort((a, b) => a.length - b.length);
  return sorted.filter((p, i) => !sorted.slice(0, i).some((q) => p.startsWith(`${q}/`)));
}
