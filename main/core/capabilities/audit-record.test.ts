import { describe, expect, it } from 'vitest';
import { argsMetadata, buildAuditRecord, redactSecrets, redactText, REDACTED } from './audit-record.js';
import { makeCapability } from './test-fixtures.js';

const SECRETS = {
  openai: 'sk-proj-AbCdEfGhIjKlMnOpQrStUvWx0123',
  anthropic: 'sk-ant-api03-abcdefghijklmnopqrstuvwxyz',
  github: 'ghp_ABCDEFGHIJKLMNOPQRSTUVWXYZabcdef0123',
  githubPat: 'github_pat_11ABCDEFG0123456789_abcdefghijklmnop',
  slack: 'xoxb-123456789012-abcdefGHIJKL',
  aws: 'AKIAIOSFODNN7EXAMPLE',
  jwt: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
  pem: '-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA\nabc\n-----END RSA PRIVATE KEY-----',
};

describe('redaction', () => {
  it.each(Object.entries(SECRETS))('hides %s shapes inside text', (_kind, secret) => {
    const out = redactText(`before ${secret} after`);
    expect(out).not.toContain(secret.slice(6, 20));
    expect(out).toMatch(/\[REDACTED:[a-z_]+\]/);
    expect(out.startsWith('before ')).toBe(true);
  });

  it('hides bearer tokens but keeps the scheme', () => {
    expect(redactText('curl -H "Authorization: Bearer abc.def-123456"')).toBe('curl -H "Authorization: Bearer [REDACTED:bearer_token]"');
  });

  it('hides an unterminated PEM block', () => {
    expect(redactText('-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk')).toBe('[REDACTED:pem]');
  });

  it('leaves ordinary text alone', () => {
    const text = 'task-list skeleton: ask AKIA? no. eyJ alone. Bearer x';
    expect(redactText(text)).toBe(text);
  });

  it('replaces declared and default secret fields at any depth, case-insensitively', () => {
    const out = redactSecrets({ query: 'ok', nested: { PIN: 1234, list: [{ Password: 'hunter2' }] }, token: 'abc' }, ['pin']);
    expect(out).toEqual({ query: 'ok', nested: { PIN: REDACTED, list: [{ Password: REDACTED }] }, token: REDACTED });
  });

  it('does not mutate the input', () => {
    const args = { a: { token: 'x' } };
    redactSecrets(args);
    expect(args.a.token).toBe('x');
  });
});

describe('buildAuditRecord', () => {
  const base = { time: Date.UTC(2025, 5, 1, 12), trust: 'operator' as const, origin: 'chat' as const, decision: 'allow' as const };

  it('full keeps the arguments', () => {
    const cap = makeCapability({ name: 'file_read' });
    const record = buildAuditRecord({ ...base, name: 'file_read', capability: cap, args: { path: 'a' }, duration_ms: 12.4, result_bytes: 3, rule: 'default: not mutating → allow' });
    expect(record).toEqual({
      time: '2025-06-01T12:00:00.000Z', conversation_id: null, trust: 'operator', origin: 'chat', capability: 'file_read', kind: 'builtin',
      policy_class: 'read_only', decision: 'allow', rule: 'default: not mutating → allow', approval: null, args_mode: 'full', args: { path: 'a' },
      duration_ms: 12, result_bytes: 3, truncated: false, error_code: null, notes: null,
    });
  });

  it('redact_args uses the capability secret_fields', () => {
    const cap = makeCapability({ name: 'mcp_bank_pay', kind: 'mcp', audit_behavior: 'redact_args', metadata: { category: 'mcp', secret_fields: ['iban'] } });
    const record = buildAuditRecord({ ...base, name: cap.name, capability: cap, args: { iban: 'DE89370400440532013000', memo: `key ${SECRETS.github}` } });
    expect(record.args).toEqual({ iban: REDACTED, memo: 'key [REDACTED:github_token]' });
  });

  it('metadata_only records names and UTF-8 sizes only', () => {
    const cap = makeCapability({ name: 'memory_store', audit_behavior: 'metadata_only' });
    const record = buildAuditRecord({ ...base, name: cap.name, capability: cap, args: { text: 'héllo-zq', n: 12 } });
    expect(record.args).toEqual({ keys: ['text', 'n'], sizes: { text: 11, n: 2 } });
    expect(JSON.stringify(record)).not.toContain('zq');
    expect(argsMetadata({ e: '😀' }).sizes.e).toBe(6);
  });

  it('an unknown capability is recorded with redacted arguments and null kind/class', () => {
    const record = buildAuditRecord({ ...base, decision: 'rejected', name: 'rm_everything', capability: undefined, args: { key: SECRETS.aws }, error_code: 'unknown_capability' });
    expect(record).toMatchObject({ capability: 'rm_everything', kind: null, policy_class: null, args_mode: 'redact_args', args: { key: '[REDACTED:aws_access_key]' }, error_code: 'unknown_capability' });
  });
});
