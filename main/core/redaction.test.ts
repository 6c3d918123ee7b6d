import { describe, expect, it } from 'vitest';
import { isSecretFieldName, redactSecrets, redactValue } from './redaction.js';
import { FermixError } from './errors.js';

// Fake but correctly shaped secrets, assembled at run time so secret scanners do not flag this file.
const alnum = (length: number, seed = 7): string => {
  const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  let out = '';
  for (let i = 0; i < length; i++) out += chars[(i * 31 + seed * 17) % chars.length];
  return out;
};
const upperDigits = (length: number): string => alnum(length * 3).replace(/[a-z]/g, '').slice(0, length).padEnd(length, '7');

const samples: { kind: string; secret: string }[] = [
  { kind: 'api_key', secret: `sk-${alnum(48)}` },
  { kind: 'api_key', secret: `sk-proj-${alnum(40)}_${alnum(20, 3)}-${alnum(30, 5)}` },
  { kind: 'api_key', secret: `sk-ant-api03-${alnum(80)}-${alnum(10, 2)}AA` },
  { kind: 'github_token', secret: `ghp_${alnum(36)}` },
  { kind: 'github_token', secret: `gho_${alnum(36)}` },
  { kind: 'github_token', secret: `ghu_${alnum(36)}` },
  { kind: 'github_token', secret: `ghs_${alnum(36)}` },
  { kind: 'github_token', secret: `ghr_${alnum(36)}` },
  { kind: 'github_token', secret: `github_pat_11${alnum(20)}_${alnum(59)}` },
  { kind: 'slack_token', secret: 'xoxb-123456789012-1234567890123-' + alnum(24) },
  { kind: 'slack_token', secret: 'xoxp-123456789012-1234567890123-' + alnum(32) },
  { kind: 'slack_token', secret: 'xoxa-2-' + alnum(40) },
  { kind: 'slack_token', secret: 'xoxr-' + alnum(40) },
  { kind: 'slack_token', secret: 'xoxs-' + alnum(40) },
  { kind: 'slack_token', secret: 'xapp-1-A0123456789-1234567890123-' + alnum(64) },
  { kind: 'google_api_key', secret: `AIza${alnum(35)}` },
  { kind: 'google_oauth_token', secret: `ya29.a0${alnum(60)}` },
  { kind: 'aws_access_key', secret: `AKIA${upperDigits(16)}` },
  { kind: 'aws_access_key', secret: `ASIA${upperDigits(16)}` },
  { kind: 'telegram_token', secret: `123456789:AA${alnum(33)}` },
  {
    kind: 'jwt',
    secret: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ.' + alnum(43),
  },
];

describe('redactSecrets', () => {
  for (const { kind, secret } of samples) {
    it(`redacts ${kind} (${secret.slice(0, 8)}…) inside text`, () => {
      const out = redactSecrets(`calling with key=${secret}, then "${secret}" done`);
      expect(out).toBe(`calling with key=[REDACTED:${kind}], then "[REDACTED:${kind}]" done`);
      expect(out).not.toContain(secret.slice(6));
    });
  }

  it('redacts AWS secret keys next to their label, keeping the label', () => {
    const secret = alnum(30) + 'abc/+EXAMP';
    expect(redactSecrets(`aws_secret_access_key = ${secret}`)).toBe('aws_secret_access_key = [REDACTED:aws_secret_key]');
    expect(redactSecrets(`AWS_SECRET_ACCESS_KEY=${secret}\n`)).toBe('AWS_SECRET_ACCESS_KEY=[REDACTED:aws_secret_key]\n');
    expect(redactSecrets(`{"SecretAccessKey": "${secret}"}`)).toBe('{"SecretAccessKey": "[REDACTED:aws_secret_key]"}');
  });

  it('redacts bearer tokens and keeps the word Bearer', () => {
    const opaque = `${alnum(32)}.${alnum(12, 4)}`;
    expect(redactSecrets(`Authorization: Bearer ${opaque}`)).toBe('Authorization: Bearer [REDACTED:bearer_token]');
    expect(redactSecrets(`authorization: bearer ${opaque}`)).toBe('authorization: bearer [REDACTED:bearer_token]');
    // A vendor key behind Bearer keeps its more specific kind.
    expect(redactSecrets(`Bearer sk-${alnum(48)}`)).toBe('Bearer [REDACTED:api_key]');
  });

  it('redacts PEM private keys (RSA, OpenSSH, PGP, PKCS#8) whole, and truncated ones up to the end of the body', () => {
    const body = `${alnum(64)}\n${alnum(64, 2)}\n${alnum(20, 3)}==`;
    for (const label of ['RSA PRIVATE KEY', 'OPENSSH PRIVATE KEY', 'PRIVATE KEY', 'ENCRYPTED PRIVATE KEY', 'EC PRIVATE KEY']) {
      const pem = `-----BEGIN ${label}-----\n${body}\n-----END ${label}-----`;
      expect(redactSecrets(`key:\n${pem}\nafter`)).toBe('key:\n[REDACTED:pem]\nafter');
    }
    const pgp = `-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n${body}\n=abcd\n-----END PGP PRIVATE KEY BLOCK-----`;
    expect(redactSecrets(`x ${pgp} y`)).toBe('x [REDACTED:pem] y');
    // JSON-escaped newlines, as in a serialized log line.
    const escaped = JSON.stringify(`-----BEGIN RSA PRIVATE KEY-----\n${body}\n-----END RSA PRIVATE KEY-----`);
    expect(redactSecrets(escaped)).toBe('"[REDACTED:pem]"');
    const truncated = `-----BEGIN RSA PRIVATE KEY-----\n${body}`;
    expect(redactSecrets(`${truncated}; then other text`)).toBe('[REDACTED:pem]; then other text');
  });

  it('leaves certificates and public keys readable', () => {
    const cert = `-----BEGIN CERTIFICATE-----\n${alnum(64)}\n-----END CERTIFICATE-----`;
    const pub = `-----BEGIN PUBLIC KEY-----\n${alnum(64)}\n-----END PUBLIC KEY-----`;
    expect(redactSecrets(cert)).toBe(cert);
    expect(redactSecrets(pub)).toBe(pub);
  });

  it('does not touch ordinary text, identifiers and hashes', () => {
    const harmless = [
      'skill-based routing and a task-list of sk-learn-compatible-estimators-everywhere',
      'sk-short, ghp_short, xoxb-short, AIzaShort, ya29.short, AKIA1234',
      'the bearer of bad news; Bearer instruments',
      'uuid 123e4567-e89b-12d3-a456-426614174000 and v4 f47ac10b-58cc-4372-a567-0e02b2c3d479',
      'commit 5914511a3f0c9e2b7d6a8c4e1f0b3a5d7c9e2f41 and short 5914511',
      'sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
      'time 2024-05-01T12:34:56.789Z port 127.0.0.1:4030 phone 555-123-4567',
      'the desk-organizer-and-filing-system-v2 sold out; AKIAB is a word; eyJ alone',
      'xoxo-hugs-and-kisses-to-everyone-here',
      '[REDACTED:api_key] stays as it is',
    ];
    for (const text of harmless) expect(redactSecrets(text)).toBe(text);
  });

  it('is idempotent', () => {
    const text = samples.map((s) => s.secret).join(' | ') + ` Bearer ${alnum(40)}`;
    const once = redactSecrets(text);
    expect(redactSecrets(once)).toBe(once);
  });

  it('stays linear on 1 MB adversarial inputs', () => {
    const inputs = [
      'a'.repeat(1 << 20),
      'sk-'.repeat(350_000),
      'sk-a'.repeat(260_000),
      '-----BEGIN RSA PRIVATE KEY-----'.repeat(34_000),
      '-----BEGIN '.repeat(95_000),
      'eyJaaaa.'.repeat(130_000),
      'Bearer '.repeat(150_000),
      'aws_secret_access_key='.repeat(48_000),
      '1234567890:'.repeat(95_000),
      'xoxb-1'.repeat(175_000) + ' ' + 'AKIA'.repeat(260_000),
    ];
    for (const input of inputs) {
      const started = performance.now();
      redactSecrets(input);
      expect(performance.now() - started, input.slice(0, 20)).toBeLessThan(1000);
    }
  });
});

describe('isSecretFieldName', () => {
  it('recognizes secret-named keys by their last word', () => {
    for (const key of ['password', 'db_password', 'clientSecret', 'secret', 'access_token', 'refreshToken', 'token', 'api_key', 'apiKey', 'APIKey', 'x-api-key', 'Authorization', 'cookie', 'set-cookie', 'private_key', 'passphrase', 'credentials']) {
      expect(isSecretFieldName(key), key).toBe(true);
    }
  });
  it('keeps usage counters and names readable', () => {
    for (const key of ['max_tokens', 'input_tokens', 'token_count', 'tokenType', 'secret_name', 'key', 'keyboard', 'passed', 'author']) {
      expect(isSecretFieldName(key), key).toBe(false);
    }
  });
});

describe('redactValue', () => {
  it('walks objects and arrays, redacting strings and secret-named fields', () => {
    const github = `ghp_${alnum(36)}`;
    const input = {
      user: 'ada',
      password: 'hunter2',
      headers: { Authorization: 'Basic dXNlcjpwYXNz', 'x-api-key': 12345, accept: 'json' },
      usage: { max_tokens: 4096, input_tokens: 12 },
      hasToken: true,
      token: null,
      notes: [`pushed with ${github}`, { nested: { client_secret: { a: 1 } } }],
    };
    expect(redactValue(input)).toEqual({
      user: 'ada',
      password: '[REDACTED:field]',
      headers: { Authorization: '[REDACTED:field]', 'x-api-key': '[REDACTED:field]', accept: 'json' },
      usage: { max_tokens: 4096, input_tokens: 12 },
      hasToken: true,
      token: null,
      notes: ['pushed with [REDACTED:github_token]', { nested: { client_secret: '[REDACTED:field]' } }],
    });
    // The input is not modified.
    expect(input.password).toBe('hunter2');
  });

  it('serializes errors with their fields, cause and stack, redacted', () => {
    const key = `sk-${alnum(48)}`;
    const error = new FermixError({ code: 'provider_error', message: `rejected ${key}`, hint: 'Run `fermix auth status`.', cause: new Error('inner') });
    const out = redactValue({ err: error }) as { err: Record<string, unknown> };
    expect(out.err.name).toBe('FermixError');
    expect(out.err.message).toBe('rejected [REDACTED:api_key]');
    expect(out.err.code).toBe('provider_error');
    expect((out.err.cause as Record<string, unknown>).message).toBe('inner');
    expect(String(out.err.stack)).not.toContain(key);
  });

  it('survives cycles, dates, bigints, binary and functions', () => {
    const node: Record<string, unknown> = { name: 'a', when: new Date(0), big: 10n, bytes: new Uint8Array(3), fn: () => 1 };
    node.self = node;
    expect(redactValue(node)).toEqual({ name: 'a', when: '1970-01-01T00:00:00.000Z', big: '10', bytes: '[binary 3 bytes]', self: '[Circular]' });
    // A shared (non-cyclic) reference is not a cycle.
    const shared = { v: 1 };
    expect(redactValue({ a: shared, b: shared })).toEqual({ a: { v: 1 }, b: { v: 1 } });
  });
});
