import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTestPolicy } from '../../../net/test-policy.js';
import { rejectionOf } from '../../../net/test-support.js';
import { decodeManifest } from '../../manifest.js';
import { PLUGIN_SOURCES } from '../../../../test/fixtures/plugin-fakes/catalog-fixture.js';
import { GITHUB_READ_USER_TOKEN, GITHUB_TOKEN, startGithubFake, type GithubFake } from '../../../../test/fixtures/plugin-fakes/github-fake.js';
import { callHttpTool, type HttpRailNet } from './interpreter.js';

// GitHub's manifest is oauth2 (reference §3.4); until OAuth lands, the token an OAuth login would
// produce is handed to the rail directly, which is exactly what the OAuth engineer's code will do.
let fake: GithubFake;
let net: HttpRailNet;
const file = join(PLUGIN_SOURCES, 'github', 'plugin.json');
const manifest = decodeManifest(readFileSync(file, 'utf8'), file, 'github');
const call = (name: string, args: Record<string, unknown>, token = GITHUB_TOKEN) =>
  callHttpTool(manifest.tools.find((t) => t.name === name)!, args, { plugin: 'github', auth: manifest.auth, credential: async () => token, net });

beforeAll(async () => {
  fake = await startGithubFake();
  net = { policy: createTestPolicy(), ca: fake.ca, lookup: async () => [{ address: '127.0.0.1', family: 4 }], testPortOverrides: { 'api.github.com': fake.server.port } };
});
afterAll(() => fake.close());

describe('HTTP rail against the GitHub fake', () => {
  it('sends the API headers and a Bearer token, and keeps only allowlisted fields', async () => {
    expect((await call('github_get_me', {})).data).toEqual({ login: 'ana', id: 1, name: 'Ana', email: null, html_url: 'https://github.com/ana', public_repos: 3 });
    const seen = fake.server.requests.at(-1)!;
    expect(seen.headers).toMatchObject({ accept: 'application/vnd.github+json', 'x-github-api-version': '2022-11-28', authorization: `Bearer ${GITHUB_TOKEN}` });
  });

  it('follows per_page/page paging while Link says rel="next"', async () => {
    const data = (await call('github_list_repos', { per_page: 2 })).data as { items: { full_name: string }[]; truncated: boolean };
    expect(data.items.map((r) => r.full_name)).toEqual(['ana/repo-0', 'ana/repo-1', 'ana/repo-2', 'ana/repo-3', 'ana/repo-4']);
    expect(data.truncated).toBe(false);
    expect(fake.server.requests.filter((r) => r.path.startsWith('/user/repos')).map((r) => new URL(r.path, 'https://x').searchParams.get('page'))).toEqual([null, '2', '3']);
  });

  it('creates an issue with a JSON body (absent optional arguments left out) and searches', async () => {
    expect((await call('github_create_issue', { owner: 'ana', repo: 'blog', title: 'Hello' })).data).toEqual({ number: 42, html_url: 'https://github.com/ana/blog/issues/42', title: 'Hello', state: 'open' });
    expect(fake.bodies.at(-1)).toEqual({ title: 'Hello' });
    const search = (await call('github_search_issues', { q: 'is:open bug' })).data as { items: { number: number }[] };
    expect(search.items.map((i) => i.number)).toEqual([7]);
  });

  it('classes 401 as reauthorization, 403 with the missing scope, 404 as a request failure', async () => {
    const unauthorized = await rejectionOf(call('github_get_me', {}, 'gho_revoked'));
    expect([unauthorized.code, unauthorized.message, unauthorized.hint]).toEqual(['reauthorization_required', 'github needs reconnection.', 'Run `fermix plugins auth reauthorize github`.']);
    const forbidden = await rejectionOf(call('github_list_repos', {}, GITHUB_READ_USER_TOKEN));
    expect(forbidden.code).toBe('permission_denied');
    expect(forbidden.message.startsWith('permission denied (requires: repo)')).toBe(true);
    const missing = await rejectionOf(call('github_get_issue', { owner: 'ana', repo: 'blog', issue_number: 404 }));
    expect(missing.code).toBe('request_failed');
    expect(missing.message).toContain('request failed (404) — {"message":"Not Found"');
  });
});
