// A provider key from the real OS keychain (gnome-keyring over D-Bus, started by `npm test` through
// ci/with-desktop.sh): `api_key_ref = "@keyring:NAME"` reaches the provider as its bearer token.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from '../../test/fixtures/model-server/index.js';
import { createKeychain } from '../secrets/keychain.js';
import { createHarness, providerConfig } from './test-harness.js';
import { systemSecrets } from './providers/secrets.js';

let server: ModelServer;
beforeAll(async () => {
  server = await startModelServer();
});
afterAll(() => server.close());

describe('provider keys from the OS keychain', () => {
  it('reads @keyring:NAME at turn time and sends it as the bearer token', async () => {
    if (!process.env.DBUS_SESSION_BUS_ADDRESS) throw new Error('No D-Bus session: run the suite with `npm test` (it starts gnome-keyring under dbus-run-session).');
    const name = `FERMIX_PROVIDER_TEST_${process.pid}`;
    const keychain = createKeychain();
    keychain.set(name, 'sk-from-the-keychain-42');
    const harness = await createHarness({
      config: providerConfig([{ name: 'main', type: 'openai', baseUrl: server.baseUrlOpenAI, primary: true }]).replace('timeout_ms', `api_key_ref = "@keyring:${name}"\ntimeout_ms`),
      capabilities: () => [],
      secrets: systemSecrets,
    });
    try {
      server.setScript([{ text: 'authorized' }]);
      const result = await harness.agent.send({ message: 'hi' }).done;
      expect(result.text).toBe('authorized');
      expect(server.requests.at(-1)!.headers.authorization).toBe('Bearer sk-from-the-keychain-42');

      // A missing entry fails the turn with needs_secret and the command that fixes it.
      keychain.clear(name);
      const missing = await harness.agent.send({ message: 'again' }).done;
      expect(missing.error?.code).toBe('needs_secret');
      expect(missing.error?.hint).toContain('fermix providers set-key main --stdin');
    } finally {
      keychain.clear(name);
      await harness.close();
    }
  });
});
