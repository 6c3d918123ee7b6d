/**
 * How a person runs `fermix` from here, for every hint that names a command. A checkout has no
 * `fermix` on PATH, so a hint saying `fermix restart` sent new users to "command not found"; inside the
 * checkout `npx fermix` works, elsewhere `node <checkout>/bin/fermix.cjs` does, and an installed (or
 * `npm link`ed) fermix on PATH is plain `fermix`. FERMIX_CLI overrides the guess (packagers, tests).
 */
import { accessSync, constants, realpathSync } from 'node:fs';
import { delimiter, join, relative, isAbsolute } from 'node:path';
import { packageRoot } from '../daemon/package-root.js';

export interface InvocationContext {
  env: NodeJS.ProcessEnv;
  cwd: string;
  root: string;
}

/**
 * A `node_modules/.bin` directory is on PATH only while npm runs us: `npx fermix` in a checkout links
 * the checkout's own bin into ~/.npm/_npx/…/node_modules/.bin, so finding `fermix` there says nothing
 * about the person's shell, where a plain `fermix` is still "command not found".
 */
function isNpmBinDir(dir: string): boolean {
  return /[\\/]node_modules[\\/]\.bin[\\/]?$/.test(dir);
}

function onPath(env: NodeJS.ProcessEnv): boolean {
  const names = process.platform === 'win32' ? ['fermix.cmd', 'fermix.exe', 'fermix'] : ['fermix'];
  for (const dir of (env.PATH ?? '').split(delimiter).filter((entry) => entry && !isNpmBinDir(entry))) {
    for (const name of names) {
      try {
        accessSync(join(dir, name), constants.X_OK);
        return true;
      } catch {
        // not in this directory
      }
    }
  }
  return false;
}

function inside(root: string, dir: string): boolean {
  let realRoot = root;
  let realDir = dir;
  try {
    realRoot = realpathSync(root);
    realDir = realpathSync(dir);
  } catch {
    // compare the paths as given
  }
  const rel = relative(realRoot, realDir);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** `fermix`, `npx fermix`, or `node /abs/bin/fermix.cjs` — whichever works from `context.cwd`. */
export function cliInvocation(context: InvocationContext = { env: process.env, cwd: process.cwd(), root: packageRoot() }): string {
  const forced = context.env.FERMIX_CLI?.trim();
  if (forced) return forced;
  if (onPath(context.env)) return 'fermix';
  if (inside(context.root, context.cwd)) return 'npx fermix';
  return `node ${join(context.root, 'bin', 'fermix.cjs')}`;
}

let cached: string | undefined;

/** `cliCommand('restart')` → "npx fermix restart" in a checkout. Memoised: PATH and cwd do not change under a running process in practice. */
export function cliCommand(rest = ''): string {
  cached ??= cliInvocation();
  return rest ? `${cached} ${rest}` : cached;
}

/** Rewrites the `fermix …` commands quoted in backticks in a hint to the invocation that works here. */
export function localizeHint(text: string): string {
  const invocation = cliCommand();
  if (invocation === 'fermix') return text;
  return text.replace(/`fermix(?=[ `])/g, `\`${invocation}`);
}
