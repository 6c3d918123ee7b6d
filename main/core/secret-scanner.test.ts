import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { cannotHoldSecret, isSecretFieldName, scanAndRedact, scanWithEveryRule } from './secret-scanner.js';

// Fake, correctly shaped values built at run time (never real keys, and nothing for a repository scanner to flag).
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const pick = (length: number, alphabet = ALNUM, seed = 11): string => {
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[(i * 37 + seed * 13 + ((i * i) % 7)) % alphabet.length];
  return out;
};
const HEX = '0123456789abcdef';

/** Each: text containing a secret, and the part of it that must not survive. */
const planted: { name: string; text: string; secret: string }[] = [
  { name: 'stripe live', text: `STRIPE=${'sk_' + 'live_'}${pick(24)}`, secret: pick(24) },
  { name: 'stripe restricted', text: `key ${'rk_' + 'live_'}${pick(24, ALNUM, 3)} end`, secret: pick(24, ALNUM, 3) },
  { name: 'npm', text: `//registry.npmjs.org/:_authToken=npm_${pick(36)}`, secret: pick(36) },
  { name: 'sendgrid', text: `SG.${pick(22)}.${pick(43, ALNUM, 5)}`, secret: pick(43, ALNUM, 5) },
  { name: 'shopify', text: `shpat_${pick(32, HEX)}`, secret: pick(32, HEX) },
  { name: 'linear', text: `lin_api_${pick(40)}`, secret: pick(40) },
  { name: 'gitlab', text: `glpat-${pick(20, ALNUM, 9)}`, secret: pick(20, ALNUM, 9) },
  { name: 'huggingface', text: `hf_${pick(34)}`, secret: pick(34) },
  { name: 'digitalocean', text: `dop_v1_${pick(64, HEX)}`, secret: pick(64, HEX) },
  { name: 'slack webhook', text: `https://hooks.slack.com/services/T0${pick(8)}/B0${pick(8, ALNUM, 2)}/${pick(24, ALNUM, 4)}`, secret: pick(24, ALNUM, 4) },
  { name: 'url password', text: `postgres://app:${pick(18)}@db.internal:5432/prod`, secret: pick(18) },
  { name: 'query api_key', text: `https://api.example.com/v1/x?q=cats&api_key=${pick(26)}&access_token=${pick(26, ALNUM, 2)}#top`, secret: pick(26) },
  { name: 'query access_token', text: `https://api.example.com/v1/x?access_token=${pick(26, ALNUM, 2)}`, secret: pick(26, ALNUM, 2) },
  { name: 'query key', text: `https://maps.example.com/api?key=${pick(30, ALNUM, 6)}`, secret: pick(30, ALNUM, 6) },
  { name: 'env password', text: `export DB_PASSWORD=${pick(16, ALNUM, 7)}\n`, secret: pick(16, ALNUM, 7) },
  { name: 'env glued', text: `PGPASSWORD='${pick(12, ALNUM, 8)} with space' psql`, secret: 'with space' },
  { name: 'cli equals', text: `mysql -u root --password=${pick(14, ALNUM, 10)} db`, secret: pick(14, ALNUM, 10) },
  { name: 'cli space', text: `tool --verbose --token ${pick(22, ALNUM, 12)} --json`, secret: pick(22, ALNUM, 12) },
  { name: 'cli quoted', text: `tool --client-secret "${pick(10, ALNUM, 13)} two words"`, secret: 'two words' },
  { name: 'header basic', text: `curl -H "Authorization: Basic ${pick(24, ALNUM, 14)}" https://x`, secret: pick(24, ALNUM, 14) },
  { name: 'header api key', text: `X-Api-Key: ${pick(32, ALNUM, 15)}`, secret: pick(32, ALNUM, 15) },
  { name: 'cookie', text: `Cookie: theme=dark; session=${pick(32, ALNUM, 16)}`, secret: pick(32, ALNUM, 16) },
  { name: 'json pair', text: `{"user":"ada","password":"${pick(12, ALNUM, 17)}"}`, secret: pick(12, ALNUM, 17) },
  { name: 'escaped json pair', text: `"{\\"secret\\":\\"${pick(12, ALNUM, 18)}\\"}"`, secret: pick(12, ALNUM, 18) },
  { name: 'yaml pair', text: `client_secret: ${pick(30, ALNUM, 19)}\n`, secret: pick(30, ALNUM, 19) },
  { name: 'curl -u', text: `curl -u admin:${pick(15, ALNUM, 20)} https://x`, secret: pick(15, ALNUM, 20) },
  { name: 'long key name', text: `${'x'.repeat(300)}_API_KEY=${pick(20, ALNUM, 21)}`, secret: pick(20, ALNUM, 21) },
  { name: 'pair after a url', text: `url=https://h/a?b=1 token=${pick(20, ALNUM, 22)}`, secret: pick(20, ALNUM, 22) },
];

describe('the secret scanner (shapes beyond the log formatter)', () => {
  for (const { name, text, secret } of planted) {
    it(`redacts ${name}`, () => {
      const out = scanAndRedact(text);
      expect(out, out).not.toContain(secret);
      expect(out).toMatch(/\[REDACTED:[a-z_]+\]/);
      expect(scanAndRedact(out)).toBe(out);
    });
  }

  it('keeps a URL readable: scheme, host, path and harmless query values', () => {
    const out = scanAndRedact(`https://api.example.com/v1/items?q=cats&api_key=${pick(26)}&page=2`);
    expect(out).toBe('https://api.example.com/v1/items?q=cats&api_key=[REDACTED:field]&page=2');
    expect(scanAndRedact(`postgres://app:${pick(18)}@db.internal:5432/prod`)).toBe('postgres://app:[REDACTED:url_password]@db.internal:5432/prod');
  });

  it('leaves references, counters and ordinary pairs alone', () => {
    const harmless = [
      'password=$DB_PASS and token=${TOKEN} and secret=%SECRET%',
      'max_tokens=4096 token_count: 12 input_tokens=5',
      'https://example.com:8080/path?page=2&sort=asc',
      'Authorization: Bearer short',
      'key=value in a memory store',
      'git commit -m "fix the password reset page" --author ada',
      'ratio 3:4 at 12:30, a=b, c: d',
    ];
    for (const text of harmless) expect(scanAndRedact(text)).toBe(text);
  });

  it('recognizes glued and compound secret names', () => {
    for (const key of ['PGPASSWORD', 'githubtoken', 'X-Amz-Signature', 'AUTH_KEY', 'session_key', 'storageAccountKey']) expect(isSecretFieldName(key), key).toBe(true);
    for (const key of ['bypass', 'compass', 'keys', 'monkey', 'author', 'tokens']) expect(isSecretFieldName(key), key).toBe(false);
  });

  it('stays linear on 1 MB adversarial inputs for the pair, flag, header and URL rules', () => {
    const inputs = [
      'password='.repeat(110_000), ' --token '.repeat(110_000), 'a:'.repeat(500_000), 'Authorization: Basic '.repeat(50_000),
      'cookie: '.repeat(120_000), 'https://a:'.repeat(100_000), '-u a:'.repeat(200_000), ' -a'.repeat(330_000),
      `${'a'.repeat(63)}.`.repeat(16_000), `${'k'.repeat(1 << 20)}=`, '"'.repeat(1 << 20) + ':',
    ];
    for (const input of inputs) {
      const started = performance.now();
      scanAndRedact(input);
      expect(performance.now() - started, input.slice(0, 20)).toBeLessThan(1000);
    }
  });
});

// Property tests: whatever surrounds a planted secret, the scanner never throws, is idempotent, and the
// secret's random part never survives.
const secretArb = fc.oneof(
  fc.stringMatching(/^[A-Za-z0-9]{36}$/).map((body) => ({ text: `ghp_${body}`, core: body })),
  fc.stringMatching(/^[A-Za-z0-9]{20}$/).map((body) => ({ text: `sk-proj-${body}7${body}`, core: body })),
  fc.stringMatching(/^[A-Z0-9]{16}$/).map((body) => ({ text: `AKIA${body}`, core: body })),
  fc.stringMatching(/^[A-Za-z0-9]{24}$/).map((body) => ({ text: `sk_live_${body}`, core: body })),
  fc.stringMatching(/^[A-Za-z0-9]{12,30}$/).map((body) => ({ text: `DB_PASSWORD=${body}`, core: body })),
  fc.stringMatching(/^[A-Za-z0-9]{12,30}$/).map((body) => ({ text: `https://h.example/p?access_token=${body}&x=1`, core: body })),
  fc.stringMatching(/^[A-Za-z0-9]{12,30}$/).map((body) => ({ text: `--password ${body}`, core: body })),
  fc.stringMatching(/^[A-Za-z0-9]{12,30}$/).map((body) => ({ text: `"api_key": "${body}"`, core: body })),
  fc.stringMatching(/^[A-Za-z0-9+/]{64}$/).map((body) => ({ text: `-----BEGIN RSA PRIVATE KEY-----\n${body}\n-----END RSA PRIVATE KEY-----`, core: body })),
);
// Surroundings that end on a boundary the shapes assume (a space, newline or punctuation).
const contextArb = fc.string({ maxLength: 40 }).map((text) => text.replace(/[A-Za-z0-9_.\-\\"':=]+$/, ''));

describe('the secret scanner (properties)', () => {
  it('never throws and is idempotent on arbitrary text', () => {
    fc.assert(fc.property(fc.string({ maxLength: 400 }), (text) => {
      const once = scanAndRedact(text);
      expect(scanAndRedact(once)).toBe(once);
    }), { numRuns: 1500 });
  });

  it('never lets a planted secret through, whatever text is around it', () => {
    fc.assert(fc.property(contextArb, secretArb, fc.constantFrom(' ', '\n', ' | ', '\t'), contextArb, (before, secret, gap, after) => {
      const out = scanAndRedact(`${before}${gap}${secret.text}${gap}${after}`);
      expect(out).not.toContain(secret.core);
      expect(scanAndRedact(out)).toBe(out);
    }), { numRuns: 1500 });
  });
});

// The short-text shortcut (cannotHoldSecret) must never skip text a rule would change: held to the full
// scan on every string, and on text built from the rules' own prefixes, where near-misses live.
const ruleFragments = fc.constantFrom(
  'bearer', 'Bearer', ' ', '\t', 'AKIA', 'ASIA', 'eyJ', '.', 'sk', 'rk', '_live_', '_test_', 'gh', 'p_', 'SG.', 'hf_', 'ya29.', 'AIza', 'SK',
  'npm_', 'lin_', 'api_', 'ops_ey', 'whsec_', 'shp', 'at_', 'do', 'o_v1_', '0', '7', 'a', 'Z', 'f', '/', '+', '_', '"', "'", 'token', 'pwd', ':', '=', '-',
);
const nearMisses = fc.array(ruleFragments, { maxLength: 8 }).map((parts) => parts.join(''));
// The shortest plain matches (a bearer token, a JWT) at and around the threshold's length.
const shortestShapes = fc.oneof(
  fc.tuple(fc.constantFrom('bearer', 'Bearer', 'BEARER'), fc.constantFrom(' ', '\t', '  '), fc.stringMatching(/^[A-Za-z0-9._~+/]{5,10}$/)).map((parts) => parts.join('')),
  fc.tuple(fc.stringMatching(/^[A-Za-z0-9_]{3,6}$/), fc.stringMatching(/^[A-Za-z0-9_]{3,6}$/), fc.stringMatching(/^[A-Za-z0-9_]{0,3}$/)).map(([a, b, c]) => `eyJ${a}.eyJ${b}.${c}`),
);

describe('the secret scanner (short-text shortcut)', () => {
  it('gives exactly what every rule gives, on arbitrary text and on text made of rule prefixes', () => {
    fc.assert(fc.property(fc.oneof(fc.string({ maxLength: 20 }), nearMisses, shortestShapes, fc.stringMatching(/^[A-Za-z0-9 ._/+]{8,16}$/)), (text) => {
      expect(scanAndRedact(text)).toBe(scanWithEveryRule(text));
    }), { numRuns: 4000 });
  });

  it('takes the shortcut only for text under 15 characters without a colon, equals sign or dash', () => {
    for (const text of ['call 12', 'README.md', 'mcp_github', '', '12345678901234']) expect(cannotHoldSecret(text), text).toBe(true);
    for (const text of ['pwd=hunter2', 'a:b', '--token x', '123456789012345', 'bearer 12345abc']) expect(cannotHoldSecret(text), text).toBe(false);
    // The 15-character plain match the threshold is set by: still redacted, through the full scan.
    expect(scanAndRedact('bearer 12345abc')).toBe('bearer [REDACTED:bearer_token]');
  });
});
