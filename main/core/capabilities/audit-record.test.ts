import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { argsMetadata, buildAuditRecord, redactSecrets, redactText, REDACTED, scrubStoredRecord } from './audit-record.js';
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

  it('marks a cycle back to the top object, a cycle further down, and one through an array', () => {
    const top: Record<string, unknown> = { name: 'top' };
    top.self = top;
    const inner: Record<string, unknown> = { name: 'inner' };
    inner.back = inner;
    const list: unknown[] = ['first'];
    list.push(list);
    expect(redactSecrets({ ...top, self: top })).toEqual({ name: 'top', self: { name: 'top', self: '[CIRCULAR]' } });
    expect(redactSecrets(top)).toEqual({ name: 'top', self: '[CIRCULAR]' });
    expect(redactSecrets({ inner })).toEqual({ inner: { name: 'inner', back: '[CIRCULAR]' } });
    expect(redactSecrets(list)).toEqual(['first', '[CIRCULAR]']);
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

describe('audit records hold no secret and stay bounded', () => {
  const base = { time: Date.UTC(2025, 5, 1, 12), trust: 'operator' as const, origin: 'chat' as const, decision: 'allow' as const };
  const key = `sk-proj-${'Ab1'.repeat(20)}`;

  it('full mode redacts secret-shaped text and secret-named fields (full never means raw)', () => {
    const cap = makeCapability({ name: 'shell', policy_class: 'exec' });
    const record = buildAuditRecord({ ...base, name: 'shell', capability: cap, args: { command: `OPENAI_API_KEY=${key} mysql --password=hunter2x9 db`, password: 'hunter2x9' } });
    expect(record.args).toEqual({ command: 'OPENAI_API_KEY=[REDACTED:api_key] mysql --password=[REDACTED:field] db', password: REDACTED });
  });

  it('file bodies are recorded as size, sha256 and a redacted excerpt', () => {
    const cap = makeCapability({ name: 'file_write', policy_class: 'read_write' });
    const content = `OPENAI_API_KEY=${key}\nDB_PASSWORD=hunter2x9\n${'filler line\n'.repeat(50)}`;
    const record = buildAuditRecord({ ...base, name: 'file_write', capability: cap, args: { path: '.env', content } });
    const args = record.args as { path: string; content: { bytes: number; sha256: string; excerpt: string } };
    expect(args.path).toBe('.env');
    expect(args.content.bytes).toBe(Buffer.byteLength(content));
    expect(args.content.sha256).toBe(createHash('sha256').update(content).digest('hex'));
    expect(args.content.excerpt.startsWith('OPENAI_API_KEY=[REDACTED:api_key]\nDB_PASSWORD=[REDACTED:field]\n')).toBe(true);
    expect(args.content.excerpt.endsWith('…')).toBe(true);
    expect(JSON.stringify(record)).not.toContain('hunter2x9');
  });

  it('a secret straddling the excerpt cut is not half-kept', () => {
    const cap = makeCapability({ name: 'file_edit', policy_class: 'read_write' });
    const record = buildAuditRecord({ ...base, name: 'file_edit', capability: cap, args: { path: 'a', old_string: `${'x'.repeat(150)} ${key}`, new_string: '' } });
    const excerpt = (record.args as { old_string: { excerpt: string } }).old_string.excerpt;
    expect(excerpt).not.toContain('sk-proj-Ab1');
    expect(excerpt).toContain('[REDACTED');
  });

  it('caps a record’s arguments at 16 KiB with a truncation marker and the original size', () => {
    const cap = makeCapability({ name: 'web_fetch', policy_class: 'network' });
    const args = { url: `https://x.example/?q=${'a'.repeat(40_000)}&token=zz${'9'.repeat(30)}`, pad: Array.from({ length: 2000 }, () => `k ${key}`) };
    const record = buildAuditRecord({ ...base, decision: 'rejected', name: 'web_fetch', capability: cap, args, error_code: 'invalid_arguments' });
    const stored = record.args as { truncated: boolean; original_bytes: number; keys: string[]; preview: string };
    expect(stored.truncated).toBe(true);
    expect(stored.original_bytes).toBe(Buffer.byteLength(JSON.stringify(args)));
    expect(stored.keys).toEqual(['url', 'pad']);
    expect(Buffer.byteLength(JSON.stringify(record.args))).toBeLessThanOrEqual(16 * 1024);
    expect(JSON.stringify(record)).not.toContain('sk-proj-Ab1');
  });

  it('an unknown name is capped and redacted; notes and rules are redacted', () => {
    const record = buildAuditRecord({ ...base, decision: 'rejected', name: `${key}${'n'.repeat(1000)}`, capability: undefined, args: {}, rule: `config: shell "curl -u a:${'p4ss'.repeat(3)} *" → allow`, notes: { backend: `used ${key}` } });
    expect(record.capability.length).toBeLessThanOrEqual(128);
    expect(JSON.stringify(record)).not.toContain('Ab1Ab1');
    expect(record.rule).toContain('[REDACTED:url_password]');
    expect(record.notes).toEqual({ backend: 'used [REDACTED:api_key]' });
  });

  it('costs well under 0.2 ms for a typical record', () => {
    const shell = makeCapability({ name: 'shell', policy_class: 'exec' });
    const write = makeCapability({ name: 'file_write', policy_class: 'read_write' });
    const typical = [
      { cap: shell, args: { command: 'git status --short && npm test -- --reporter=dot', working_dir: 'projects/app', timeout_ms: 30000 } },
      { cap: write, args: { path: 'notes/todo.md', content: 'milk\neggs\nbread\n'.repeat(40) } },
    ];
    for (let i = 0; i < 200; i++) for (const { cap, args } of typical) buildAuditRecord({ ...base, name: cap.name, capability: cap, args });
    const runs = 2000;
    const started = performance.now();
    for (let i = 0; i < runs; i++) for (const { cap, args } of typical) buildAuditRecord({ ...base, name: cap.name, capability: cap, args });
    const perRecord = (performance.now() - started) / (runs * typical.length);
    console.log(`audit record cost: ${(perRecord * 1000).toFixed(1)} µs per record`);
    expect(perRecord).toBeLessThan(0.2);
  });
});

describe('scrubStoredRecord (queries and exports of rows stored before redaction)', () => {
  const base = { time: Date.UTC(2025, 5, 1, 12), trust: 'operator' as const, origin: 'chat' as const, decision: 'allow' as const };
  const key = `ghp_${'Zy8'.repeat(12)}`;

  it('redacts an old raw row and leaves a new record as it is', () => {
    const cap = makeCapability({ name: 'file_write', policy_class: 'read_write' });
    const fresh = buildAuditRecord({ ...base, name: 'file_write', capability: cap, args: { path: 'a', content: `TOKEN=${key}` } });
    expect(scrubStoredRecord(fresh)).toEqual(fresh);
    const old = { ...fresh, args: { path: 'a', content: `TOKEN=${key}`, password: 'hunter2x9' }, rule: `x ${key}`, notes: { n: key } };
    const scrubbed = scrubStoredRecord(old);
    expect(JSON.stringify(scrubbed)).not.toMatch(/Zy8Zy8|hunter2x9/);
    expect(scrubbed.args).toEqual({ path: 'a', content: 'TOKEN=[REDACTED:github_token]', password: REDACTED });
  });
});
