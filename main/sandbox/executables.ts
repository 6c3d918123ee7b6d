import { accessSync, constants } from 'node:fs';
import path from 'node:path';

/** The first executable `name` on `searchPath` (a path-delimited list), or `name` itself when it is a path. */
export function findExecutable(name: string, searchPath: string): string | undefined {
  if (name.includes('/')) return isExecutable(name) ? name : undefined;
  for (const dir of searchPath.split(path.delimiter)) {
    if (dir === '') continue;
    const candidate = path.join(dir, name);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
