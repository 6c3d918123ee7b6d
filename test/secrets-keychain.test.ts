import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { cliCommand } from '../main/cli/invocation.js';
import { createKeychain, keyringUnavailableHint } from '../main/secrets/keychain.js';
import { runFermix, tempHome } from './support/daemon-process.js';

// These run against the real gnome-keyring that `npm test` starts (ci/with-desktop.sh). Without a
// session bus they fail and say how to run them, rather than skip.
const bus = process.env.DBUS_SESSION_BUS_ADDRESS;
const needsBus = () => {
  if (!bus) throw new Error('No D-Bus session: run the suite with `npm test` (it starts gnome-keyring under dbus-run-session).');
};

describe('secrets in the OS keychain (gnome-keyring over D-Bus)', () => {
  it('stores, reads and deletes a secret under service fermix:NAME, account fermix', () => {
    needsBus();
    const keychain = createKeychain();
    const name = `FERMIX_TEST_${process.pid}`;
    keychain.set(name, 'sk-test-value-123');
    expect(keychain.get(name)).toBe('sk-test-value-123');
    // An independent client sees the same item where reference §1.3 says it lives.
    const lookup = spawnSync('secret-tool', ['lookup', 'service', `fermix:${name}`, 'username', 'fermix'], { encoding: 'utf8' });
    expect(lookup.stdout).toBe('sk-test-value-123');
    expect(keychain.clear(name)).toBe(true);
    expect(keychain.get(name)).toBeNull();
  });

  it('`fermix secrets set` refuses a value in argv and takes it from --stdin', () => {
    needsBus();
    const home = tempHome();
    const name = `FERMIX_CLI_${process.pid}`;
    const refused = runFermix(home, ['secrets', 'set', name, 'visible-in-ps']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--stdin');
    const stored = runFermix(home, ['secrets', 'set', name, '--stdin'], { input: 'from-a-pipe\n' });
    expect(stored.code, stored.stderr).toBe(0);
    expect(createKeychain().get(name)).toBe('from-a-pipe');
    expect(runFermix(home, ['secrets', 'status', name]).stdout).toContain('set');
    expect(runFermix(home, ['secrets', 'clear', name]).code).toBe(0);
    expect(runFermix(home, ['secrets', 'status', name]).code).toBe(1);
  });

  it('names the fix when no keychain is reachable', () => {
    const keychain = createKeychain({
      loadEntry: () => class {
        getPassword(): string | null {
          throw new Error('Platform secure storage failure: DBus error: The name org.freedesktop.secrets was not provided');
        }
        setPassword() {}
        deletePassword() {
          return false;
        }
      },
    });
    expect(() => keychain.get('OPENAI_API_KEY')).toThrow(expect.objectContaining({ code: 'keyring_unavailable', hint: expect.stringContaining(`gnome-keyring-daemon --unlock --components=secrets; ${cliCommand('daemon')}"`) }));
  });

  it('the fix names fermix as it runs here, inside sh -c too (a checkout has no fermix on PATH)', () => {
    const hint = keyringUnavailableHint('npx fermix');
    expect(hint).toContain('`dbus-run-session -- sh -c "gnome-keyring-daemon --unlock --components=secrets; npx fermix daemon"`');
    expect(hint).toContain('`npx fermix secrets migrate --to file`');
    expect(hint).not.toMatch(/[;`] ?fermix /);
    expect(keyringUnavailableHint('fermix')).toContain('secrets; fermix daemon"');
  });
});
