/**
 * The sandbox as the shell tool and the CLI see it: one object wiring the path gate, hardline,
 * child environment, redaction, OS jail and runner in the order Fermix applies them
 * (size cap → working dir → hardline → env → run → redact → failure tag). The composition root creates one.
 */
import path from 'node:path';
import { FermixError } from '../core/errors.js';
import { redactSecrets } from '../core/redaction.js';
import { buildChildEnv, createRedactor, type Redactor } from './env.js';
import { findHardline, hardlineError, loadHardline, MAX_COMMAND_BYTES } from './hardline.js';
import type { Jail } from './jail.js';
import { createPathPolicy, type PathPolicy } from './path-policy.js';
import { commandFailure, createCommandRunner, DEFAULT_TIMEOUT_MS, type CommandRunner, type RunResult } from './runner.js';
import type { SandboxConfig } from './sandbox-config.js';

export interface SandboxOptions {
  config: SandboxConfig;
  home: string;
  fermixHome: string;
  /** The daemon's environment: base values and allowed names come from here. */
  daemonEnv: Record<string, string | undefined>;
  daemonCwd?: string;
  keychain?: (name: string) => Promise<string | undefined>;
  /** From createJail(); without it commands run unjailed (the path gate and hardline still apply). */
  jail?: Jail;
  runner?: CommandRunner;
  /** Every refusal and unresolved env name, for traces/<date>/sandbox_event.jsonl and doctor's "sandbox traces". */
  onEvent?: (event: SandboxEvent) => void;
}

export type SandboxEvent =
  | { type: 'sandbox_denied'; reason: string; path?: string; access?: string }
  | { type: 'sandbox_hardline'; rule: string; command: string }
  | { type: 'env_unresolved'; name: string; reason: string };

export interface ShellRequest {
  command: string;
  /** Defaults to the workspace (the working directory of every sandbox mode). */
  working_dir?: string;
  timeout_ms?: number;
  maxOutputBytes?: number;
  signal?: AbortSignal;
  /** The request's cwd, only on a trusted local operator turn (standard mode). */
  requestCwd?: string;
  /** A command capability's pass_env. */
  passEnv?: string[];
}

export interface ShellResult extends RunResult {
  /** env_unresolved notes, to put at the top of the tool result. */
  notes: string[];
  /** The command as the trace may keep it: first 300 bytes, secrets redacted (reference §6). */
  trace_command: string;
}

export interface Sandbox {
  readonly policy: PathPolicy;
  readonly workspace: string;
  /** Runs a shell command; throws FermixError on refusal and on failure (timeout, exit_nonzero, …). */
  runShell(request: ShellRequest): Promise<ShellResult>;
  shutdown(): Promise<void>;
}

export function createSandbox(options: SandboxOptions): Sandbox {
  const { config, home, fermixHome } = options;
  const workspace = path.resolve(config.workspace_root ?? path.join(fermixHome, 'workspace'));
  const policy = createPathPolicy({
    mode: config.mode,
    home,
    fermixHome,
    workspace,
    allowedRoots: config.allowed_roots,
    blockedRoots: config.blocked_roots,
    daemonCwd: options.daemonCwd,
    onDenied: (d) => options.onEvent?.({ type: 'sandbox_denied', reason: d.reason ?? 'invalid_path', path: d.realPath ?? d.input, access: d.access }),
  });
  const runner = options.runner ?? createCommandRunner();
  // The shell parser behind hardline loads once (~10–30 ms of WASM compile), in the background just
  // after start-up rather than on its path; a command that comes first starts and awaits it.
  setTimeout(() => void loadHardline(), 300).unref();

  const runShell = async (request: ShellRequest): Promise<ShellResult> => {
    // The size cap comes before anything reads the command (the hardline is linear, but not free).
    if (typeof request.command !== 'string' || Buffer.byteLength(request.command, 'utf8') > MAX_COMMAND_BYTES) {
      throw new FermixError({
        code: 'invalid_command',
        message: `Command is empty or longer than ${MAX_COMMAND_BYTES} bytes.`,
        hint: 'Pass one non-empty shell command line in `command`; write long scripts to a file and run the file.',
      });
    }
    const context = { baseDir: workspace, requestCwd: request.requestCwd };
    const cwdDecision = policy.decide(request.working_dir ?? workspace, 'write', context);
    if (!cwdDecision.allowed) {
      const error = cwdDecision.error as FermixError;
      options.onEvent?.({ type: 'sandbox_denied', reason: cwdDecision.reason ?? 'invalid_path', path: cwdDecision.realPath ?? cwdDecision.input, access: 'write' });
      if (error.code === 'invalid_path') throw new FermixError({ code: 'invalid_working_dir', message: error.message, hint: error.hint });
      throw error;
    }
    const cwd = cwdDecision.realPath as string;
    await loadHardline(); // loads once; later calls return the same settled promise
    const hit = findHardline(request.command, {
      home,
      fermixHome,
      cwd,
      isProtected: (p) => policy.decide(p, 'write').reason === 'protected_path',
    });
    if (hit) {
      options.onEvent?.({ type: 'sandbox_hardline', rule: hit.rule, command: truncateBytes(redactSecrets(hit.excerpt), 300) });
      throw hardlineError(hit);
    }
    const wrapper = options.jail?.forPlan({ writableRoots: policy.roots(context), ...policy.jailMounts() });
    const childEnv = await buildChildEnv({
      config: config.env,
      daemonEnv: options.daemonEnv,
      keychain: options.keychain,
      passEnv: request.passEnv,
      overrides: wrapper ? { TMPDIR: '/tmp' } : {},
    });
    for (const u of childEnv.unresolved) options.onEvent?.({ type: 'env_unresolved', name: u.name, reason: u.reason });
    const redact: Redactor = createRedactor(childEnv.secrets);
    const timeoutMs = request.timeout_ms ?? DEFAULT_TIMEOUT_MS;
    const result = await runner.runCommand({
      command: request.command,
      cwd,
      env: childEnv.env,
      timeoutMs,
      maxOutputBytes: request.maxOutputBytes,
      signal: request.signal,
      jail: wrapper,
      redact,
    });
    const failure = commandFailure(result, timeoutMs);
    if (failure) throw failure;
    return { ...result, notes: childEnv.notes, trace_command: truncateBytes(redact(request.command), 300) };
  };

  return { policy, workspace, runShell, shutdown: () => runner.shutdownAll() };
}

function truncateBytes(text: string, max: number): string {
  const bytes = Buffer.from(text, 'utf8');
  return bytes.length <= max ? text : bytes.subarray(0, max).toString('utf8').replace(/\uFFFD$/, '');
}
