import type { HomePaths } from '../../config/home.js';
import { callDaemon } from '../control-client.js';
import { EXIT, UsageError, type CliIo } from '../output.js';

/**
 * `fermix token rotate`: signs every window out on purpose (a lost laptop, a shared screen, a URL pasted
 * somewhere). Web sessions survive restarts, so a restart alone no longer does this. The CLI itself is
 * unaffected: the control socket's file permissions are its boundary.
 */
export async function tokenVerb(io: CliIo, paths: HomePaths, sub: string | undefined, json: boolean): Promise<number> {
  if (sub !== 'rotate') throw new UsageError('usage: fermix token rotate [--json]');
  const result = (await callDaemon(paths.socket, 'system.rotate_token')) as { url: string; revoked_sessions: number };
  if (json) io.out(JSON.stringify({ schema_version: 1, ok: true, result }));
  else {
    io.out(`Signed out ${result.revoked_sessions} window session(s); the old URL no longer works.`);
    io.out(`Open in a browser: ${result.url}`);
  }
  return EXIT.ok;
}
