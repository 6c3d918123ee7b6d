// `fermix token rotate`: every web session and the old URL token stop working at once; the CLI keeps
// working (its boundary is the control socket's file mode) and `fermix status` prints the new URL.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFermixAsync, startDaemonProcess, tempHome, type DaemonProcess } from './support/daemon-process.js';

const home = tempHome('fermix-rotate-');
let daemon: DaemonProcess;
beforeAll(async () => {
  daemon = await startDaemonProcess(home);
});
afterAll(async () => {
  daemon.child.kill('SIGTERM');
  await daemon.exited;
});

async function signIn(token: string): Promise<string> {
  const response = await fetch(`${daemon.base}auth/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token }) });
  expect(response.status).toBe(200);
  return (response.headers.get('set-cookie') ?? '').split(';')[0];
}
const statusWith = (headers: Record<string, string>) => fetch(`${daemon.base}api/system.status`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: '{}' }).then((r) => r.status);

describe('fermix token rotate', () => {
  it('revokes every window session and the old token, and hands out a new URL', async () => {
    const cookie = await signIn(daemon.token);
    await signIn(daemon.token);
    expect(await statusWith({ cookie })).toBe(200);

    const rotated = await runFermixAsync(home, ['token', 'rotate', '--json']);
    expect(rotated.code, rotated.stderr).toBe(0);
    const { url, revoked_sessions } = JSON.parse(rotated.stdout).result;
    expect(revoked_sessions).toBeGreaterThanOrEqual(2);
    const newToken = /#token=([\w-]+)$/.exec(url)?.[1];
    expect(newToken).toBeDefined();
    expect(newToken).not.toBe(daemon.token);

    expect(await statusWith({ cookie })).toBe(401);
    expect(await statusWith({ authorization: `Bearer ${daemon.token}` })).toBe(401);
    expect(await statusWith({ authorization: `Bearer ${newToken}` })).toBe(200);
    expect(await statusWith({ cookie: await signIn(newToken!) })).toBe(200);
    // The CLI still works, and status prints the new URL.
    expect(JSON.parse(readFileSync(join(home, 'run', 'daemon.json'), 'utf8')).url).toBe(url);
    const status = await runFermixAsync(home, ['status', '--json']);
    expect(JSON.parse(status.stdout).result.url).toBe(url);
  });
});
