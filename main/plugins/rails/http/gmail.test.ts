import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rejectionOf } from '../../../net/test-support.js';
import { GOOGLE_READONLY_TOKEN } from '../../../../test/fixtures/plugin-fakes/google-fake.js';
import { startGoogleKit } from './google-test-kit.js';
import { createTestPolicy } from '../../../net/test-policy.js';

let kit: Awaited<ReturnType<typeof startGoogleKit>>;
beforeAll(async () => { kit = await startGoogleKit('gmail', 'gmail.googleapis.com', createTestPolicy()); });
afterAll(() => kit.fake.close());
const G = 'https://www.googleapis.com/auth/';

describe('HTTP rail against the Gmail fake', () => {
  it('declares the bundled tools on Google OAuth with every scope, whatever a grant later holds', () => {
    expect(kit.manifest.auth).toEqual({ type: 'oauth2', provider: 'google', scopes: ['openid', 'email', 'profile', `${G}gmail.readonly`, `${G}gmail.send`], profile_key: 'gmail', account_mode: 'single' });
    expect(kit.manifest.tools.map((t) => [t.name, t.requires_scopes])).toEqual([['gmail_search_messages', [`${G}gmail.readonly`]], ['gmail_send_message', [`${G}gmail.send`]]]);
  });

  it('searches with q and maxResults (default 10), following nextPageToken → pageToken', async () => {
    const first = (await kit.call('gmail_search_messages', { query: 'from:ada' })).data as { items: unknown[] };
    expect(first.items).toHaveLength(5);
    expect([kit.query().get('q'), kit.query().get('maxResults')]).toEqual(['from:ada', '10']);
    const paged = (await kit.call('gmail_search_messages', { query: 'from:ada', max_results: 2 })).data as { items: { id: string }[]; truncated: boolean };
    expect([paged.items.map((m) => m.id), paged.truncated]).toEqual([['18c0', '18c1', '18c2', '18c3', '18c4'], false]);
    expect(kit.query().get('pageToken')).not.toBeNull();
  });

  it('sends an RFC 2822 message as base64url `raw` (UTF-8 subject encoded), refusing header injection', async () => {
    expect((await kit.call('gmail_send_message', { to: 'ada@example.com', subject: 'Grüße', body: 'Hello\nAda' })).data).toEqual({ id: '18sent', threadId: '18tsent', labelIds: ['SENT'] });
    const raw = Buffer.from((kit.fake.bodies.at(-1) as { raw: string }).raw, 'base64url').toString('utf8');
    expect(raw).toContain('To: ada@example.com\r\nSubject: =?UTF-8?B?R3LDvMOfZQ==?=\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset="UTF-8"\r\nContent-Transfer-Encoding: base64\r\n\r\n');
    expect(Buffer.from(raw.split('\r\n\r\n')[1], 'base64').toString('utf8')).toBe('Hello\nAda');
    const before = kit.fake.server.requests.length;
    const injected = await rejectionOf(kit.call('gmail_send_message', { to: 'ada@example.com\r\nBcc: eve@example.com', subject: 'x', body: 'y' }));
    expect([injected.code, injected.message]).toEqual(['invalid_arguments', 'invalid parameter: to']);
    expect(kit.fake.server.requests.length).toBe(before);
  });

  it('graceful 403s: a grant without gmail.send says to reconnect with that scope; a 403 rate limit is a rate limit', async () => {
    const scope = await rejectionOf(kit.call('gmail_send_message', { to: 'ada@example.com', subject: 's', body: 'b' }, GOOGLE_READONLY_TOKEN));
    expect([scope.code, scope.message, scope.hint]).toEqual(['permission_denied', `permission denied (requires: ${G}gmail.send) — the Google connection was made without this scope`, `Reconnect and grant ${G}gmail.send: \`fermix plugins auth reauthorize gmail\`.`]);
    expect((await kit.call('gmail_search_messages', { query: 'x' }, GOOGLE_READONLY_TOKEN)).data).toMatchObject({ truncated: false });
    const rate = await rejectionOf(kit.call('gmail_search_messages', { query: 'busy' }));
    expect([rate.code, rate.message]).toEqual(['rate_limited', 'rate-limited retry after 60s (userRateLimitExceeded)']);
    const expired = await rejectionOf(kit.call('gmail_search_messages', { query: 'x' }, 'ya29.expired'));
    expect([expired.code, expired.hint]).toEqual(['reauthorization_required', 'Run `fermix plugins auth reauthorize gmail`.']);
  });
});
