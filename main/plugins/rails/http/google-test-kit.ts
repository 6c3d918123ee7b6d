/** Shared set-up of the three Google plugin tests: the manifest, a fake for its host, and `call`. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { NetPolicy } from '../../../net/url-policy.js';
import { decodeManifest, type PluginManifest } from '../../manifest.js';
import { PLUGIN_SOURCES } from '../../../../test/fixtures/plugin-fakes/catalog-fixture.js';
import { GOOGLE_TOKEN, startGoogleFake } from '../../../../test/fixtures/plugin-fakes/google-fake.js';
import type { VendorFake } from '../../../../test/fixtures/plugin-fakes/vendor-fake.js';
import { callHttpTool, type HttpRailNet } from './interpreter.js';

export function googleManifest(name: string): PluginManifest {
  const file = join(PLUGIN_SOURCES, name, 'plugin.json');
  return decodeManifest(readFileSync(file, 'utf8'), file, name);
}

/** `policy`: the loopback-opening test policy, minted by the calling .test file (test-policy-boundary.test.ts). */
export async function startGoogleKit(name: string, host: 'gmail.googleapis.com' | 'www.googleapis.com', policy: NetPolicy) {
  const manifest = googleManifest(name);
  const fake: VendorFake = await startGoogleFake(host);
  const net: HttpRailNet = { policy, ca: fake.ca, lookup: async () => [{ address: '127.0.0.1', family: 4 }], testPortOverrides: { [host]: fake.server.port } };
  // Google is oauth2: the token an OAuth login would produce is handed to the rail directly.
  const call = (tool: string, args: Record<string, unknown>, token = GOOGLE_TOKEN) =>
    callHttpTool(manifest.tools.find((t) => t.name === tool)!, args, { plugin: name, auth: manifest.auth, credential: async () => token, net });
  const query = () => new URL(fake.server.requests.at(-1)!.path, 'https://x').searchParams;
  return { manifest, fake, call, query };
}
