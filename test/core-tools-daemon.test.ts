import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runFermixAsync, startDaemonProcess, tempHome, type DaemonProcess } from './support/daemon-process.js';

/** `fermix capabilities call` drives each core tool in a running daemon, through the one boundary. */
describe('core tools through `fermix capabilities call` against a running daemon', () => {
  const home = tempHome();
  let daemon: DaemonProcess;
  const call = async (name: string, args: unknown) => {
    const result = await runFermixAsync(home, ['capabilities', 'call', name, '--json', '--args', JSON.stringify(args)]);
    return { code: result.code, result: result.code === 0 ? JSON.parse(result.stdout).result : undefined, error: result.code !== 0 ? JSON.parse(result.stdout).error : undefined };
  };

  beforeAll(async () => {
    // auto mode: mutating calls from this unattended CLI are allowed (an explicit deny rule still wins).
    writeFileSync(join(home, 'config.toml'), '[permissions]\nmode = "auto"\n\n[[permissions.rules]]\npermission = "shell"\npattern = "*rm -rf*"\naction = "deny"\n');
    daemon = await startDaemonProcess(home);
  });
  afterAll(async () => {
    daemon.child.kill('SIGTERM');
    await daemon.exited;
  });

  it('writes, reads, edits and searches files in the workspace', async () => {
    expect((await call('file_write', { path: 'notes/todo.md', content: 'milk\neggs\nbread\n' })).result.text).toMatch(/Wrote 16 bytes/);
    expect(readFileSync(join(home, 'workspace', 'notes', 'todo.md'), 'utf8')).toBe('milk\neggs\nbread\n');
    expect((await call('file_read', { path: 'notes/todo.md', offset: 2, limit: 1 })).result.text).toContain('eggs');
    expect((await call('file_edit', { path: 'notes/todo.md', old_string: 'eggs', new_string: 'butter' })).code).toBe(0);
    expect(readFileSync(join(home, 'workspace', 'notes', 'todo.md'), 'utf8')).toBe('milk\nbutter\nbread\n');
    expect((await call('glob_search', { pattern: '**/*.md' })).result.text).toContain('todo.md');
    expect(JSON.stringify((await call('content_search', { pattern: 'butt' })).result)).toContain('butter');
  });

  it('refuses paths outside the sandbox and protected files, with the Fermix reasons', async () => {
    const outside = await call('file_read', { path: '/etc/hostname' });
    expect(outside.error).toMatchObject({ code: 'sandbox_denied' });
    const config = await call('file_read', { path: join(home, 'config.toml') });
    expect(config.error.code).toBe('sandbox_denied');
    expect(JSON.stringify(config.error)).toMatch(/protected|outside/);
  });

  it('runs shell commands in the jail, refuses hardline commands and honours a deny rule', async () => {
    const ok = await call('shell', { command: 'echo hi > from-shell.txt && cat from-shell.txt' });
    expect(ok.result.text).toContain('hi');
    expect((await call('shell', { command: 'mkfs.ext4 /dev/sda1' })).error.code).toBe('sandbox_hardline');
    const denied = await call('shell', { command: 'rm -rf notes' });
    expect(denied.error.code).toBe('permission_denied');
    expect(readFileSync(join(home, 'workspace', 'notes', 'todo.md'), 'utf8')).toContain('milk');
  });

  it('reads and writes git, refusing push and dangerous flags', async () => {
    expect((await call('shell', { command: 'git init -q repo && echo a > repo/a.txt' })).code).toBe(0);
    expect((await call('git_write', { command: 'add', repo: 'repo', args: ['a.txt'] })).code).toBe(0);
    expect((await call('git_read', { command: 'status', repo: 'repo' })).result.text).toContain('a.txt');
    expect((await call('git_write', { command: 'push', repo: 'repo' })).error.code).toBe('push_deferred');
    expect((await call('git_read', { command: 'diff', repo: 'repo', args: ['--output=/tmp/x'] })).error.code).toMatch(/invalid|refused|git_failed|unknown/);
  });

  it('applies `fermix grant path` and `revoke path` to the running daemon at once', async () => {
    const outside = tempHome('fermix-granted-');
    writeFileSync(join(outside, 'data.txt'), 'granted data');
    expect((await call('file_read', { path: join(outside, 'data.txt') })).error.code).toBe('sandbox_denied');
    const granted = await runFermixAsync(home, ['grant', 'path', outside]);
    expect(granted.code, granted.stderr).toBe(0);
    expect(granted.stdout).toContain('applied to the running daemon');
    expect((await call('file_read', { path: join(outside, 'data.txt') })).result.text).toContain('granted data');
    expect((await runFermixAsync(home, ['revoke', 'path', outside])).code).toBe(0);
    expect((await call('file_read', { path: join(outside, 'data.txt') })).error.code).toBe('sandbox_denied');
  });

  it('keeps web_fetch off loopback (SSRF floor) and names the reason', async () => {
    const fetched = await call('web_fetch', { url: `http://127.0.0.1:${daemon.port}/health/live` });
    expect(fetched.error.code).toBe('blocked_url');
  });

  it('sends attachments and reactions to the chat, and refuses unattended directory requests', async () => {
    writeFileSync(join(home, 'workspace', 'report.txt'), 'quarterly');
    expect((await call('send_attachment', { path: 'report.txt' })).code).toBe(0);
    expect((await call('send_attachment', { path: 'https://example.com/x.png' })).error.code).toBe('url_not_supported');
    expect((await call('react', { emoji: '👍' })).result.data).toMatchObject({ ends_turn: true });
    expect((await call('request_directory_access', { path: join(home, 'workspace', '..', 'elsewhere'), reason: 'read data' })).error.code).toMatch(/^(not_attended|unsafe_root)$/);
    expect((await call('request_directory_access', { path: tempHome('grant-me-'), reason: 'scratch files' })).error.code).toBe('not_attended');
  });

  it('records every one of these calls in the audit trail', async () => {
    const audit = await runFermixAsync(home, ['audit', '--json', '--limit', '500']);
    const names = new Set(JSON.parse(audit.stdout).result.records.map((record: { capability: string }) => record.capability));
    for (const name of ['file_write', 'file_read', 'file_edit', 'glob_search', 'content_search', 'shell', 'git_read', 'git_write', 'web_fetch', 'send_attachment', 'react', 'request_directory_access']) {
      expect(names, name).toContain(name);
    }
  });
});
