/**
 * FIFOs and sockets against the file tools (hardening issue, item 2). A blocking open() of a FIFO
 * without a writer pins a libuv pool thread forever; four of them (the default pool size) hung every
 * later file tool and even DNS lookups. Now the open is O_NONBLOCK and fstat refuses anything that
 * is not a regular file with `not_regular_file`, and the searches skip such entries.
 * Every call is raced against a timer, so a regression fails here instead of hanging the run.
 */
import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { lookup } from 'node:dns/promises';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolResult } from '../../main/core/capabilities/capability.js';
import { contentSearch } from '../../main/tools/content-search.js';
import { fileEdit } from '../../main/tools/file-edit.js';
import { fileRead } from '../../main/tools/file-read.js';
import { fileWrite } from '../../main/tools/file-write.js';
import { globSearch } from '../../main/tools/glob-search.js';
import { sendAttachment } from '../../main/tools/send-attachment.js';
import { failureOf, makeToolFixture, run, type ToolFixture } from '../../main/tools/tool-test-fixture.js';

let fx: ToolFixture;
let server: net.Server;
const FIFOS = ['f1', 'f2', 'f3', 'f4'];

beforeAll(async () => {
  fx = makeToolFixture('fermix-fifo-');
  const dir = path.join(fx.workspace, 'pipes');
  mkdirSync(dir);
  execFileSync('mkfifo', FIFOS.map((f) => path.join(dir, f)));
  symlinkSync(path.join(dir, 'f1'), path.join(dir, 'link-to-fifo.txt'));
  writeFileSync(path.join(dir, 'plain.txt'), 'needle in a plain file\n');
  server = net.createServer();
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(path.join(dir, 'daemon.sock'), resolve));
});
afterAll(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await fx?.dispose();
});

/** Fails (instead of hanging) when a call takes longer than `ms`. */
async function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms)));
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const call = (executor: typeof fileRead.executor, args: Record<string, unknown>, extra?: Record<string, unknown>): Promise<ToolResult> =>
  run(executor, args, fx.context(extra ? { extra } : {}));

describe('file tools and non-regular files', () => {
  it('file_read of four FIFOs answers not_regular_file at once, and the tools and DNS keep working', async () => {
    const started = Date.now();
    const failures = await within(2000, 'file_read of four FIFOs', Promise.all(FIFOS.map((f) => failureOf(call(fileRead.executor, { path: `pipes/${f}` })))));
    for (const failure of failures) {
      expect(failure.code).toBe('not_regular_file');
      expect(failure.message).toMatch(/is a FIFO \(named pipe\), not a regular file\.$/);
    }
    expect(Date.now() - started).toBeLessThan(2000);
    // The pool is free: a normal read, a write and a DNS lookup (which also runs on the pool) all finish.
    expect((await within(2000, 'file_read after the FIFOs', call(fileRead.executor, { path: 'hello.txt' }))).text).toBe('hello');
    await within(2000, 'file_write after the FIFOs', call(fileWrite.executor, { path: 'after.txt', content: 'ok' }));
    expect((await within(3000, 'DNS lookup after the FIFOs', lookup('localhost'))).address).toMatch(/^(127\.0\.0\.1|::1)$/);
  });

  it('a symlink to a FIFO and a socket are refused too', async () => {
    expect((await within(2000, 'file_read via symlink', failureOf(call(fileRead.executor, { path: 'pipes/link-to-fifo.txt' })))).code).toBe('not_regular_file');
    const socket = await within(2000, 'file_read of a socket', failureOf(call(fileRead.executor, { path: 'pipes/daemon.sock' })));
    expect(socket.code).toBe('not_regular_file');
    expect(socket.message).toMatch(/is a socket, not a regular file\.$/);
  });

  it('file_edit, file_write and send_attachment refuse a FIFO and leave it in place', async () => {
    const edit = await within(2000, 'file_edit of a FIFO', failureOf(call(fileEdit.executor, { path: 'pipes/f2', old_string: 'a', new_string: 'b' })));
    expect(edit.code).toBe('not_regular_file');
    const write = await within(2000, 'file_write over a FIFO', failureOf(call(fileWrite.executor, { path: 'pipes/f3', content: 'x' })));
    expect(write.code).toBe('not_regular_file');
    expect(lstatSync(path.join(fx.workspace, 'pipes', 'f3')).isFIFO()).toBe(true);
    const sink = { send: async () => ({ id: 'never' }) };
    const send = await within(2000, 'send_attachment of a FIFO', failureOf(call(sendAttachment.executor, { path: 'pipes/f4' }, { attachments: sink })));
    expect(send.code).toBe('not_regular_file');
  });

  it('glob_search and content_search over a folder with FIFOs and a socket finish and skip them', async () => {
    const glob = await within(3000, 'glob_search', call(globSearch.executor, { pattern: '**/*', path: 'pipes' }));
    expect(glob.data).toEqual([path.join(fx.workspace, 'pipes', 'plain.txt')]);
    const search = await within(3000, 'content_search', call(contentSearch.executor, { pattern: 'needle', path: 'pipes' }));
    expect((search.data as { matches: Array<{ path: string }> }).matches.map((m) => m.path)).toEqual([path.join(fx.workspace, 'pipes', 'plain.txt')]);
    // A FIFO named directly as the search root is skipped as well (no match, no hang).
    const direct = await within(3000, 'content_search of a FIFO', call(contentSearch.executor, { pattern: 'needle', path: 'pipes/f1' }));
    expect((direct.data as { matches: unknown[] }).matches).toEqual([]);
  });
});
