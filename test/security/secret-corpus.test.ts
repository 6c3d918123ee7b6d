import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { lintSource } from '@secretlint/core';
import { creator as recommended } from '@secretlint/secretlint-rule-preset-recommend';
import { scanAndRedact } from '../../main/core/secret-scanner.js';
import { apiCall, runFermixAsync, startDaemonProcess, tempHome, type DaemonProcess } from '../support/daemon-process.js';
import { random, secretCorpus } from './secret-shapes.js';

/**
 * Issue items 6–7: no secret in the audit, the logs, the exports or `fermix audit`. Every shape of the
 * corpus is planted in the arguments of every built-in tool the daemon offers and in the results of the
 * tools that echo (file_read, shell, content_search, git_read), driven through the real invoke boundary of
 * a running daemon with its real on-disk store; then the raw database bytes, both exports, the log files
 * and `fermix audit --json` are searched for every secret.
 */
const corpus = secretCorpus();
const allSecrets = corpus.flatMap((shape) => shape.secrets.map((secret) => ({ shape: shape.shape, secret })));
const corpusText = corpus.map((shape) => shape.text).join('\n');

function chunks(limit: number): string[] {
  const out: string[] = [];
  let current = '';
  for (const shape of corpus) {
    if (current.length > 0 && current.length + shape.text.length + 1 > limit) {
      out.push(current);
      current = '';
    }
    current += (current ? '\n' : '') + shape.text;
  }
  return current ? [...out, current] : out;
}

const secretlintConfig = { rules: [{ id: '@secretlint/secretlint-rule-preset-recommend', rule: recommended }] };
async function secretlintFindings(content: string) {
  const result = await lintSource({ source: { filePath: '/corpus/planted.env', content, contentType: 'text' }, options: { config: secretlintConfig as never, noPhysicFilePath: true } });
  return result.messages;
}

describe('the secret corpus against secretlint', () => {
  it('has at least 40 shapes, and secretlint flags nothing once our scanner has run', async () => {
    expect(corpus.length).toBeGreaterThanOrEqual(40);
    const before = await secretlintFindings(corpusText);
    // secretlint recognizes a good part of the corpus itself (the rest are shapes its preset lacks)…
    expect(before.length).toBeGreaterThanOrEqual(15);
    // …and nothing it flags survives ours.
    const after = await secretlintFindings(scanAndRedact(corpusText));
    expect(after.map((m) => `${m.ruleId}: ${m.message}`)).toEqual([]);
    const raw = allSecrets.filter(({ secret }) => scanAndRedact(corpusText).includes(secret)).map((s) => s.shape);
    expect(raw).toEqual([]);
  });
});

interface View { name: string; parameters: { properties?: Record<string, { type?: string; enum?: unknown[] }> } }

describe('planted secrets never reach the audit, the exports, the logs or `fermix audit`', () => {
  const home = tempHome('fermix-secret-corpus-');
  let daemon: DaemonProcess;
  const call = async (name: string, args: Record<string, unknown>) => {
    const { body } = await apiCall(daemon, 'capabilities.call', { name, args });
    return body;
  };

  beforeAll(async () => {
    writeFileSync(join(home, 'config.toml'), '[permissions]\nmode = "auto"\n');
    daemon = await startDaemonProcess(home);
  });
  afterAll(async () => {
    if (daemon && daemon.child.exitCode === null) {
      daemon.child.kill('SIGTERM');
      await daemon.exited;
    }
  });

  it(`plants ${corpus.length} shapes in every built-in tool and finds none of them raw`, { timeout: 60_000 }, async () => {
    const { body } = await apiCall(daemon, 'capabilities.list', { kind: 'builtin' });
    const tools = body.result.capabilities as View[];
    expect(tools.length).toBeGreaterThan(20);

    // 1. Every tool, every chunk of the corpus in every argument, plus an unknown argument: refused at
    //    the boundary (strict inputs, error naming the field) and audited as a rejection.
    const pieces = chunks(3000);
    for (const tool of tools) {
      const strict = await call(tool.name, { zz_unknown: 'x' });
      expect(strict.error?.code, tool.name).toBe('invalid_arguments');
      expect(strict.error?.message, tool.name).toContain('`zz_unknown` is not an accepted argument');
      for (const piece of pieces) {
        const args: Record<string, unknown> = { zz_unknown: piece };
        for (const [key, schema] of Object.entries(tool.parameters.properties ?? {})) {
          args[key] = schema.enum ? schema.enum[0] : schema.type === 'array' ? [piece] : schema.type === 'object' ? { note: piece } : schema.type === 'integer' || schema.type === 'number' ? 1 : schema.type === 'boolean' ? true : piece;
        }
        // tool_call unwraps to a "tool" named after the planted text: refused as unknown_capability.
        expect((await call(tool.name, args)).error?.code, tool.name).toBe(tool.name === 'tool_call' ? 'unknown_capability' : 'invalid_arguments');
      }
    }

    // 2. Calls that run, with the secrets in their arguments and in their results.
    const write = await call('file_write', { path: 'vault/.env', content: corpusText });
    expect(write.error, JSON.stringify(write.error)).toBeUndefined();
    const read = await call('file_read', { path: 'vault/.env' });
    expect(read.result.text).toContain(allSecrets[0]!.secret);
    expect((await call('file_edit', { path: 'vault/.env', old_string: corpus[0]!.text, new_string: corpus[1]!.text })).error).toBeUndefined();
    // The pattern is the whole token (a bare random tail is not recognizable as a secret by anyone).
    expect(JSON.stringify((await call('content_search', { pattern: corpus[5]!.text })).result)).toContain(corpus[5]!.secrets[0]);
    for (const piece of chunks(1500)) {
      const quoted = `'${piece.replace(/'/g, `'\\''`)}'`;
      const shell = await call('shell', { command: `printf '%s\\n' ${quoted} | head -c 100000` });
      expect(shell.result?.text ?? JSON.stringify(shell.error)).toContain(piece.split('\n')[0]!.slice(0, 20));
    }
    // The sandbox logs a refused command's first 300 bytes: the log path sees the secrets too.
    for (const shape of corpus) {
      const refused = await call('shell', { command: `mkfs.ext4 /dev/sda1 ${shape.text.replace(/\n/g, ' ')}` });
      expect(refused.error?.code).toBe('sandbox_hardline');
    }
    expect((await call('shell', { command: 'git init -q repo && git -C repo config user.email a@example.invalid && git -C repo config user.name Ada && echo a > repo/a.txt' })).error).toBeUndefined();
    expect((await call('git_write', { command: 'add', repo: 'repo', args: ['a.txt'] })).error).toBeUndefined();
    const commit = await call('git_write', { command: 'commit', repo: 'repo', args: ['-m', chunks(1500)[0]!] });
    expect(commit.error, JSON.stringify(commit.error)).toBeUndefined();
    expect((await call('git_read', { command: 'log', repo: 'repo' })).result.text).toContain(allSecrets[0]!.secret);
    const [apiKey, accessToken] = [random(28), random(28)];
    const url = `http://127.0.0.1:${daemon.port}/v1/items?api_key=${apiKey}&access_token=${accessToken}&q=cats`;
    expect((await call('web_fetch', { url })).error?.code).toBe('blocked_url');
    allSecrets.push({ shape: 'web_fetch api_key', secret: apiKey }, { shape: 'web_fetch access_token', secret: accessToken });
    if (tools.some((tool) => tool.name === 'memory_store')) await call('memory_store', { key: 'deploy', value: chunks(1500)[1]! });

    // 3. The unbounded-audit attack: a 4 MB unknown `pad` argument is refused, and its record stays small.
    const padSecret = `ghp_${random(36)}`;
    allSecrets.push({ shape: 'pad', secret: padSecret.slice(4) });
    const pad = await call('shell', { command: 'echo hi', pad: `${'p'.repeat(4 * 1024 * 1024)} ${padSecret}` });
    expect(pad.error?.code).toBe('invalid_arguments');
    expect(pad.error?.message).toContain('`pad` is not an accepted argument');

    // What the audit still says: sizes, sha256, the URL's host and path.
    const query = await apiCall(daemon, 'audit.query', { limit: 100_000 });
    const records = query.body.result.records as { capability: string; decision: string; args: any; error_code: string | null }[];
    const written = records.find((r) => r.capability === 'file_write' && r.decision === 'allow')!;
    expect(written.args.path).toBe('vault/.env');
    expect(written.args.content.bytes).toBe(Buffer.byteLength(corpusText));
    expect(written.args.content.sha256).toBe(createHash('sha256').update(corpusText).digest('hex'));
    const fetched = records.find((r) => r.capability === 'web_fetch' && r.error_code === 'blocked_url')!;
    expect(fetched.args.url).toBe(`http://127.0.0.1:${daemon.port}/v1/items?api_key=[REDACTED:field]&access_token=[REDACTED:field]&q=cats`);
    // Over 4 KiB, a string is kept as its size, sha256 and a redacted excerpt (past 16 KiB a record is cut).
    const padRecord = records.find((r) => r.capability === 'shell' && r.error_code === 'invalid_arguments' && typeof r.args.pad === 'object')!;
    expect(padRecord.args.pad.bytes).toBeGreaterThan(4 * 1024 * 1024);
    expect(Buffer.byteLength(JSON.stringify(padRecord.args))).toBeLessThanOrEqual(16 * 1024);
    expect(records.length).toBeGreaterThan(tools.length * (pieces.length + 1));

    // 4. Everything that can show or store them.
    const auditJson = await runFermixAsync(home, ['audit', '--json', '--limit', '100000']);
    const csv = await runFermixAsync(home, ['audit', '--export', 'csv', '--limit', '100000']);
    const jsonl = await runFermixAsync(home, ['audit', '--export', 'jsonl', '--limit', '100000']);
    for (const out of [auditJson, csv, jsonl]) expect(out.code, out.stderr).toBe(0);
    expect(jsonl.stdout.split('\n').filter(Boolean).length).toBe(records.length);
    daemon.child.kill('SIGTERM');
    await daemon.exited;

    const dbFiles = readdirSync(home).filter((name) => name.startsWith('fermix.db')).map((name) => join(home, name));
    const logDir = join(home, 'logs');
    const logFiles = existsSync(logDir) ? readdirSync(logDir).map((name) => join(logDir, name)) : [];
    expect(dbFiles.length).toBeGreaterThan(0);
    expect(logFiles.length).toBeGreaterThan(0);
    const log = logFiles.map((file) => readFileSync(file, 'utf8')).join('');
    expect(log.match(/"msg":"sandbox event".*\[REDACTED:/g)?.length ?? 0).toBeGreaterThanOrEqual(40);
    // 14 such calls grew fermix.db to 445 MB before; one 4 MB pad must not show up in the file size.
    expect(dbFiles.reduce((sum, file) => sum + statSync(file).size, 0)).toBeLessThan(4 * 1024 * 1024);

    const places: [string, Buffer][] = [
      ...dbFiles.map((file): [string, Buffer] => [file, readFileSync(file)]),
      ...logFiles.map((file): [string, Buffer] => [file, readFileSync(file)]),
      ['fermix audit --json', Buffer.from(auditJson.stdout)],
      ['audit export csv', Buffer.from(csv.stdout)],
      ['audit export jsonl', Buffer.from(jsonl.stdout)],
      ['daemon stdout+stderr', Buffer.from(daemon.stdout() + daemon.stderr())],
    ];
    const found = places.flatMap(([place, bytes]) => allSecrets.filter(({ secret }) => bytes.includes(secret)).map(({ shape }) => `${shape} in ${place}`));
    console.log(`secret corpus: ${corpus.length} shapes, ${allSecrets.length} secrets, ${tools.length} tools, ${records.length} audit records; found raw: ${found.length}`);
    expect(found).toEqual([]);
  });
});
