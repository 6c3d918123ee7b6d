import { lazyBuiltin } from '../daemon/lazy-builtin.js';
import { z } from 'zod';
import type { Executor } from '../core/capabilities/capability.js';
import { FermixError } from '../core/errors.js';
import { defineBuiltin } from './define-builtin.js';
import { lazySchema } from './lazy-schema.js';
import { errnoOf, looksBinary, notFoundError, openForRead } from './fs-atomic.js';
import { pathContext, servicesOf, stringArg } from './tool-services.js';

/** What one read returns at most; the invoke boundary would cut at 100,000 characters anyway, mid-line. */
export const MAX_READ_CHARS = 100_000;

export const fileReadInput = lazySchema(() =>
  z.object({
    path: z.string().min(1).describe('Path of the file to read, absolute or relative to the working directory.'),
    offset: z.number().int().min(1).default(1).describe('1-based line number to start reading from (default 1).'),
    limit: z.number().int().min(1).optional().describe('Maximum number of lines to return (default: to the end of the file).'),
  }),
);

const executeFileRead: Executor = async (args, context) => {
  const input = stringArg(args, 'path', 'missing_path', 'file_read');
  const offset = typeof args.offset === 'number' && args.offset >= 1 ? Math.floor(args.offset) : 1;
  const limit = typeof args.limit === 'number' && args.limit >= 1 ? Math.floor(args.limit) : Infinity;
  const { sandbox } = servicesOf(context, 'sandbox');
  const gate = { policy: sandbox.policy, context: pathContext(context, sandbox) };
  const real = sandbox.policy.checkRead(input, gate.context); // invalid_path, sandbox_denied
  let opened;
  try {
    // Verifies the object really opened (not just the path string) and refuses FIFOs before they block.
    opened = await openForRead(real, gate);
  } catch (error) {
    if (error instanceof FermixError) throw error; // sandbox_denied, invalid_path (folder), not_regular_file
    if (errnoOf(error) === 'ENOENT' || errnoOf(error) === 'ENOTDIR') throw notFoundError(real, 'file_read');
    throw new FermixError({ code: 'invalid_path', message: `Cannot open ${real}: ${errnoOf(error) ?? String(error)}.`, hint: 'Check the path and its permissions.', data: { path: real }, cause: error });
  }
  const { handle, stat } = opened;
  try {
    const head = Buffer.alloc(Math.min(4096, stat.size));
    await handle.read(head, 0, head.length, 0);
    if (looksBinary(head)) {
      return { text: `${real} is a binary file (${stat.size} bytes); file_read shows text only.`, data: { path: real, binary: true, size: stat.size } };
    }
    return await readWindow(handle, real, offset, limit);
  } finally {
    await handle.close();
  }
};

// node:readline loads with the first windowed read.
const readline = lazyBuiltin<typeof import('node:readline')>('node:readline');

/** Streams the file line by line: a window of a huge log never loads the whole log. */
async function readWindow(handle: Awaited<ReturnType<typeof openForRead>>['handle'], real: string, offset: number, limit: number) {
  const lines: string[] = [];
  let chars = 0;
  let total = 0;
  let cut = false;
  const reader = readline().createInterface({ input: handle.createReadStream({ encoding: 'utf8', start: 0, autoClose: false }), crlfDelay: Infinity });
  for await (const line of reader) {
    total += 1;
    if (total < offset || lines.length >= limit || cut) continue;
    if (chars + line.length + 1 > MAX_READ_CHARS) {
      // One giant line (minified code, a JSON dump): show its start rather than nothing.
      if (lines.length === 0) lines.push(line.slice(0, MAX_READ_CHARS));
      cut = true;
      continue;
    }
    lines.push(line);
    chars += line.length + 1;
  }
  const last = offset + lines.length - 1;
  const data = { path: real, offset, lines: lines.length, total_lines: total, truncated: cut || last < total };
  if (total === 0) return { text: '', data };
  if (offset > total) return { text: `[${real} has ${total} lines; offset ${offset} is past the end.]`, data };
  let text = lines.join('\n');
  if (cut) text += `\n[Truncated at ${MAX_READ_CHARS} characters: showing lines ${offset}-${last} of ${total}; call file_read with offset ${last + 1} to continue.]`;
  else if (offset > 1 || last < total) text += `\n[Lines ${offset}-${last} of ${total}.]`;
  return { text, data };
}

export const fileRead = defineBuiltin({
  name: 'file_read',
  description: 'Read a UTF-8 text file, gated by the sandbox read-path check. Supports a line offset and limit for large files.',
  policy_class: 'read_only',
  category: 'file',
  input: fileReadInput,
  when_to_use: 'Read the contents of a file at a known path, optionally a window of lines.',
  examples: [
    { args: { path: 'README.md', limit: 80 }, note: 'read the top of a file' },
    { args: { path: 'src/server.ts', offset: 120, limit: 40 }, note: 'read lines 120-159' },
  ],
  failure_modes: [
    { tag: 'missing_path', description: 'path is absent or blank' },
    { tag: 'not_found', description: 'the file does not exist' },
    { tag: 'invalid_path', description: 'path contains null bytes, or is a folder' },
    { tag: 'sandbox_denied', description: 'Path is outside the sandbox roots (or protected, or under a blocked root)' },
    { tag: 'not_regular_file', description: 'the path is a FIFO, socket or device, refused before it can block' },
  ],
  scope_requirements: ['fs:read'],
  executor: executeFileRead,
});
