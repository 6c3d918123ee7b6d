import { mkdirSync, chmodSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** Every path under $FERMIX_HOME, in one place (ARCHITECTURE §5). */
export interface HomePaths {
  home: string;
  config: string;
  database: string;
  workspace: string;
  skills: string;
  plugins: string;
  browserProfiles: string;
  logs: string;
  logFile: string;
  run: string;
  socket: string;
  pidFile: string;
  runtimeInfo: string;
}

export function resolveHome(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.FERMIX_HOME?.trim();
  return resolve(fromEnv ? fromEnv : join(homedir(), '.fermix'));
}

export function homePaths(home: string): HomePaths {
  const run = join(home, 'run');
  const logs = join(home, 'logs');
  return {
    home,
    config: join(home, 'config.toml'),
    database: join(home, 'fermix.db'),
    workspace: join(home, 'workspace'),
    skills: join(home, 'skills'),
    plugins: join(home, 'plugins'),
    browserProfiles: join(home, 'browser', 'profiles'),
    logs,
    logFile: join(logs, 'fermix.log'),
    run,
    socket: join(run, 'daemon.sock'),
    pidFile: join(run, 'daemon.pid'),
    runtimeInfo: join(run, 'daemon.json'),
  };
}

const PRIVATE_DIRS: (keyof HomePaths)[] = ['home', 'workspace', 'skills', 'plugins', 'browserProfiles', 'logs', 'run'];

/** Creates the home on first start; every directory is 0700 because it holds the owner's data and sockets. */
export function ensureHome(paths: HomePaths): void {
  for (const key of PRIVATE_DIRS) {
    const dir = paths[key];
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    // mkdir's mode is masked by umask and does not touch existing directories.
    chmodSync(dir, 0o700);
  }
  mkdirSync(join(paths.home, 'browser'), { recursive: true, mode: 0o700 });
}

/** Directories that are readable by other accounts; for the doctor's home_permissions row. */
export function loosePermissions(paths: HomePaths): string[] {
  const loose: string[] = [];
  for (const key of PRIVATE_DIRS) {
    try {
      const mode = statSync(paths[key]).mode & 0o777;
      if (mode & 0o077) loose.push(`${paths[key]} (${mode.toString(8)})`);
    } catch {
      // A missing directory is reported by other checks.
    }
  }
  return loose;
}
