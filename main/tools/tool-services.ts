/**
 * What the core built-in tools expect in `context.services` (injected per call by the composition
 * root). Executors never construct these themselves: the sandbox is the only thing allowed to spawn,
 * and the chat sinks belong to the channel the turn came from.
 *
 * `servicesOf(context, …keys)` checks the named services are present and shaped right, so a wiring
 * mistake fails loudly with `service_unavailable` instead of `undefined is not a function`.
 */
import type { ExecutionContext, Origin } from '../core/capabilities/capability.js';
import { FermixError } from '../core/errors.js';
import type { CheckContext, Sandbox } from '../sandbox/index.js';
import type { DirectoryAccess } from '../sandbox/directory-access.js';

/** A file handed to the chat by send_attachment. Bytes are read by the tool (after the sandbox check). */
export interface OutgoingAttachment {
  conversationId: string;
  kind: 'image' | 'document' | 'audio' | 'video' | 'voice';
  /** The canonical path the bytes were read from (for the transcript; not re-read). */
  path: string;
  filename: string;
  mimeType: string;
  bytes: Buffer;
  caption?: string;
}

/** The active channel's attachment port. The desktop chat stores the bytes and shows them in the thread. */
export interface AttachmentSink {
  /** Largest file the channel accepts; larger ones fail `byte_cap_exceeded` before they are read. */
  readonly maxBytes?: number;
  /** Longest caption the channel accepts (`text_cap_exceeded`). */
  readonly maxCaptionChars?: number;
  /** May throw FermixError `rate_limited` (data.retry_after) or `byte_cap_exceeded`. */
  send(attachment: OutgoingAttachment): Promise<{ id?: string }>;
}

/** The active channel's reaction port (the desktop chat supports reactions). */
export interface ReactionSink {
  /** False on channels without reactions (`reaction_unsupported`). Default true. */
  readonly supported?: boolean;
  /** Restricted channels accept only their own set (`unsupported_emoji`); absent means any emoji. */
  readonly allowed?: readonly string[];
  /** Reacts to the message that started this turn. */
  react(input: { conversationId: string; emoji: string }): Promise<void>;
}

export interface ToolServices {
  /** The current sandbox (re-read per call: the composition root swaps it after a config change). */
  sandbox: Sandbox;
  /** request_directory_access tokens; the same instance answers `/confirm TOKEN` in chat. */
  directoryAccess: DirectoryAccess;
  /** send_attachment's port; absent when the run has no channel to reply to. */
  attachments: AttachmentSink;
  /** react's port; absent when the run has no channel to reply to. */
  reactions: ReactionSink;
}

export type ServiceName = keyof ToolServices;

/** Duck checks: the services record is untyped at the boundary, so verify what we are about to call. */
const SHAPE: Record<ServiceName, (value: Record<string, unknown>) => boolean> = {
  sandbox: (v) => typeof v.runShell === 'function' && typeof v.policy === 'object' && typeof v.workspace === 'string',
  directoryAccess: (v) => typeof v.request === 'function' && typeof v.answer === 'function',
  attachments: (v) => typeof v.send === 'function',
  reactions: (v) => typeof v.react === 'function',
};

/** The named services, or `service_unavailable` naming the first one the composition root did not inject. */
export function servicesOf<K extends ServiceName>(context: ExecutionContext, ...names: K[]): Pick<ToolServices, K> {
  const out = {} as Pick<ToolServices, K>;
  for (const name of names) {
    const value = optionalService(context, name);
    if (value === undefined) {
      throw new FermixError({
        code: 'service_unavailable',
        message: `This tool needs the ${name} service, which this daemon did not provide.`,
        hint: 'This is a wiring bug in the daemon (main/daemon/compose.ts); run `fermix doctor` and report it.',
        data: { service: name },
      });
    }
    out[name] = value;
  }
  return out;
}

/** One service when present and well-formed, else undefined (for ports that may legitimately be absent). */
export function optionalService<K extends ServiceName>(context: ExecutionContext, name: K): ToolServices[K] | undefined {
  const value = (context.services ?? {})[name];
  if (value === null || typeof value !== 'object' || !SHAPE[name](value as Record<string, unknown>)) return undefined;
  return value as ToolServices[K];
}

/** Origins where a person at this machine drives the turn (their cwd may count as a sandbox root). */
const LOCAL_ORIGINS: ReadonlySet<Origin> = new Set<Origin>(['cli', 'chat']);

/**
 * The request cwd counts only on a trusted local operator turn (reference §2.3, standard mode).
 * Relative paths resolve against it when it is inside the roots, else against the workspace.
 */
export function pathContext(context: ExecutionContext, sandbox: Sandbox): CheckContext {
  const trusted = context.trust === 'operator' && LOCAL_ORIGINS.has(context.origin);
  const requestCwd = trusted && typeof context.cwd === 'string' && context.cwd !== '' ? context.cwd : undefined;
  if (requestCwd === undefined) return { baseDir: sandbox.workspace };
  const usable = sandbox.policy.decide(requestCwd, 'read', { requestCwd }).allowed;
  return usable ? { baseDir: requestCwd, requestCwd } : { baseDir: sandbox.workspace, requestCwd };
}

/**
 * A folder argument resolved against the tool's base dir (the request cwd on a local operator turn),
 * because runShell resolves relative working dirs against the workspace. `~` forms are left for the
 * policy to expand.
 */
export function resolveAgainstBase(input: string | undefined, base: string): string {
  if (input === undefined || input === '') return base;
  if (input.startsWith('/') || input === '~' || input.startsWith('~/')) return input;
  return `${base.replace(/\/+$/, '')}/${input}`;
}

/** A required string argument: the invoke boundary validates, but executors are also called directly. */
export function stringArg(args: Record<string, unknown>, name: string, code: string, tool: string): string {
  const value = args[name];
  if (typeof value !== 'string' || value.trim() === '') {
    throw new FermixError({
      code,
      message: `${tool} needs \`${name}\` as a non-empty string.`,
      hint: `Call ${tool} again with \`${name}\` set (tool_describe ${tool} shows every argument).`,
      data: { field: name },
    });
  }
  return value;
}
