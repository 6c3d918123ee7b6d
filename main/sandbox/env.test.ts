import { describe, expect, it } from 'vitest';
import { buildChildEnv, createRedactor, DEFAULT_DENY } from './env.js';

const daemonEnv = {
  PATH: '/usr/bin:/bin',
  HOME: '/home/ana',
  LANG: 'C.UTF-8',
  LC_ALL: 'C.UTF-8',
  TERM: 'xterm',
  OPENAI_API_KEY: 'sk-test-openai-1234567890',
  GITHUB_TOKEN: 'ghp_abcdefghijklmnop',
  AWS_ACCESS_KEY_ID: 'AKIAEXAMPLE',
  LD_PRELOAD: '/tmp/evil.so',
  EDITOR: 'vim',
  FERMIX_HOME: '/home/ana/.fermix',
};

const config = (extra: Partial<{ mode: 'allowlist' | 'all'; allow: string[]; deny: string[]; helpers: Record<string, string[]> }> = {}) => ({
  mode: 'allowlist' as const, allow: [], deny: [], helpers: {}, ...extra,
});

describe('child environment', () => {
  it('allowlist: minimal base plus allowed names only', async () => {
    const child = await buildChildEnv({ config: config({ allow: ['OPENAI_API_KEY'] }), daemonEnv });
    expect(child.env).toEqual({
      PATH: '/usr/bin:/bin', HOME: '/home/ana', LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8', TERM: 'xterm', OPENAI_API_KEY: 'sk-test-openai-1234567890',
    });
    expect(child.secrets).toEqual({ OPENAI_API_KEY: 'sk-test-openai-1234567890' });
    expect(child.notes).toEqual([]);
  });

  it('all: the daemon env minus deny list and secret-shaped defaults, explicit allow still wins', async () => {
    const child = await buildChildEnv({ config: config({ mode: 'all', allow: ['GITHUB_TOKEN'], deny: ['EDITOR'] }), daemonEnv });
    expect(child.env.GITHUB_TOKEN).toBe('ghp_abcdefghijklmnop');
    for (const name of ['OPENAI_API_KEY', 'AWS_ACCESS_KEY_ID', 'LD_PRELOAD', 'EDITOR', 'FERMIX_HOME']) expect(child.env[name], name).toBeUndefined();
  });

  it('default deny list matches secret-shaped names', () => {
    for (const name of ['STRIPE_SECRET', 'SLACK_BOT_TOKEN', 'MY_API_KEY', 'AWS_REGION', 'DB_PASSWORD', 'NODE_OPTIONS']) {
      expect(DEFAULT_DENY.some((re) => re.test(name)), name).toBe(true);
    }
    expect(DEFAULT_DENY.some((re) => re.test('EDITOR'))).toBe(false);
  });

  it('resolves per command: helper, then keychain, then daemon env; missing values become notes, not refusals', async () => {
    const child = await buildChildEnv({
      config: config({ allow: ['FROM_HELPER', 'FROM_KEYCHAIN', 'OPENAI_API_KEY', 'NOT_SET'], helpers: { FROM_HELPER: ['/bin/echo', 'helper-value-123'] } }),
      daemonEnv,
      keychain: async (name) => (name === 'FROM_KEYCHAIN' ? 'keychain-value-456' : undefined),
    });
    expect(child.env).toMatchObject({ FROM_HELPER: 'helper-value-123', FROM_KEYCHAIN: 'keychain-value-456', OPENAI_API_KEY: 'sk-test-openai-1234567890' });
    expect(child.unresolved).toEqual([{ name: 'NOT_SET', reason: 'missing' }]);
    expect(child.notes[0]).toMatch(/^Note: env NOT_SET is not set .*\(env_unresolved\)/);
  });

  it('kills helpers past the shared 5 s budget (shortened here) and reports helper failures', async () => {
    const started = Date.now();
    const child = await buildChildEnv({
      config: config({ allow: ['SLOW', 'BROKEN'], helpers: { SLOW: ['/bin/sleep', '30'], BROKEN: ['/bin/false'] } }),
      daemonEnv,
      helperBudgetMs: 300,
    });
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(child.unresolved).toEqual(expect.arrayContaining([{ name: 'SLOW', reason: 'helper_timeout' }, { name: 'BROKEN', reason: 'helper_failed' }]));
    expect(child.env.SLOW).toBeUndefined();
  });

  it('refuses multi-line and oversized values', async () => {
    const child = await buildChildEnv({ config: config({ allow: ['MULTI', 'HUGE'] }), daemonEnv: { ...daemonEnv, MULTI: 'a\nb', HUGE: 'x'.repeat(8193) } });
    expect(child.unresolved).toEqual([{ name: 'MULTI', reason: 'multi_line' }, { name: 'HUGE', reason: 'too_long' }]);
  });

  it('pass_env names must be on the allow list', async () => {
    const child = await buildChildEnv({ config: config(), daemonEnv, passEnv: ['OPENAI_API_KEY'] });
    expect(child.env.OPENAI_API_KEY).toBeUndefined();
    expect(child.notes[0]).toContain('fermix sandbox env allow OPENAI_API_KEY');
  });
});

describe('redactor', () => {
  const redact = createRedactor({ OPENAI_API_KEY: 'sk-test-openai-1234567890', SHORT: 'abc1234' });

  it('replaces values of 8 bytes or more, leaves shorter ones', () => {
    expect(redact('key=sk-test-openai-1234567890 short=abc1234')).toBe('key=[REDACTED:env:OPENAI_API_KEY] short=abc1234');
  });

  it('catches base64 at every alignment and hex', () => {
    const secret = 'sk-test-openai-1234567890';
    for (const prefix of ['', 'x', 'xy', 'xyz']) {
      const encoded = Buffer.from(prefix + secret + '\n').toString('base64');
      expect(redact(encoded), `prefix ${JSON.stringify(prefix)}`).toContain('[REDACTED:env:OPENAI_API_KEY]');
    }
    expect(redact(Buffer.from(secret).toString('hex'))).toBe('[REDACTED:env:OPENAI_API_KEY]');
  });

  it('reports how far past a cut output must be kept', () => {
    expect(redact.lookahead).toBeGreaterThanOrEqual(50);
    expect(createRedactor({}).lookahead).toBe(0);
  });
});
