/**
 * Sandbox command capabilities (reference §2.3 "Command profiles", "Single command capabilities"):
 * - profile `bare` (default) has no presets; `assistant` and `extended` (the same) add the presets
 *   `ai_tools` (codex, claude_code) and `dev_tools` (git, gh, make);
 * - a preset appears only when its executable is on the daemon's PATH and every `pass_env` name it
 *   uses is on `[sandbox.env] allow` (otherwise it could only fail);
 * - `[sandbox.commands.<name>]` entries appear under every profile; an entry named like a preset
 *   replaces it, and `enabled = false` hides it (that is how `fermix sandbox commands disable` works).
 * The family carries `metadata.sandbox_command = true`, so a config change swaps it in one step:
 * `registry.replace_kind('builtin', { sandbox_command: true }, caps)` (applyCommandCapabilities).
 */
import path from 'node:path';
import type { Capability, ExecutionContext, Executor } from '../core/capabilities/capability.js';
import type { CapabilityRegistry } from '../core/capabilities/registry.js';
import { groupFor } from '../core/capabilities/groups.js';
import { FermixError } from '../core/errors.js';
import { findExecutable } from './executables.js';
import { runArgv } from './run-argv.js';
import type { Sandbox } from './sandbox.js';
import type { SandboxCommandConfig, SandboxConfig } from './sandbox-config.js';

export type PresetName = 'ai_tools' | 'dev_tools';

export interface PresetCommand {
  name: string;
  command: string;
  pass_env: string[];
  description: string;
}

export const COMMAND_PRESETS: Readonly<Record<PresetName, readonly PresetCommand[]>> = {
  ai_tools: [
    { name: 'codex', command: 'codex', pass_env: ['OPENAI_API_KEY'], description: 'Run the OpenAI Codex CLI (e.g. args ["exec", "<task>"]) in the sandbox.' },
    { name: 'claude_code', command: 'claude', pass_env: ['ANTHROPIC_API_KEY'], description: 'Run the Claude Code CLI (e.g. args ["-p", "<task>"]) in the sandbox.' },
  ],
  dev_tools: [
    { name: 'git', command: 'git', pass_env: [], description: 'Run git with any arguments in the sandbox (git_read and git_write cover the common cases).' },
    // ~/.config/gh is a protected path, so gh authenticates only through GH_TOKEN.
    { name: 'gh', command: 'gh', pass_env: ['GH_TOKEN'], description: 'Run the GitHub CLI in the sandbox (authenticated through GH_TOKEN).' },
    { name: 'make', command: 'make', pass_env: [], description: 'Run make targets in the sandbox.' },
  ],
};

const NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export interface CommandStatus {
  name: string;
  source: 'config' | PresetName;
  command: string;
  args: string[];
  pass_env: string[];
  timeout_ms: number;
  description: string;
  visible: boolean;
  /** Why it is hidden, for `fermix sandbox commands`. */
  reason?: string;
}

export interface CommandOptions {
  config: Pick<SandboxConfig, 'commands' | 'env'>;
  /** The daemon's environment: its PATH is searched for preset executables. */
  daemonEnv: Record<string, string | undefined>;
  /** Names already taken by other capabilities (the built-ins): such a command is hidden, not a crash. */
  reserved?: ReadonlySet<string>;
}

/** Every preset and configured command with whether it is offered, and why not. */
export function describeCommands(options: CommandOptions): CommandStatus[] {
  const { commands, env } = options.config;
  const { profile, ...entries } = commands;
  const configured = entries as Record<string, SandboxCommandConfig>;
  const out: CommandStatus[] = [];
  const withPresets = profile === 'assistant' || profile === 'extended';
  for (const [preset, list] of Object.entries(COMMAND_PRESETS) as Array<[PresetName, readonly PresetCommand[]]>) {
    for (const p of list) {
      if (configured[p.name] !== undefined) continue; // the config entry replaces the preset
      const status: CommandStatus = { name: p.name, source: preset, command: p.command, args: [], pass_env: p.pass_env, timeout_ms: 30_000, description: p.description, visible: false };
      const missingEnv = p.pass_env.filter((n) => !env.allow.includes(n));
      if (!withPresets) status.reason = `profile is ${profile}; presets need \`fermix sandbox commands profile assistant\``;
      else if (findExecutable(p.command, options.daemonEnv.PATH ?? '') === undefined) status.reason = `${p.command} is not on the daemon PATH`;
      else if (missingEnv.length > 0) status.reason = `env ${missingEnv.join(', ')} not allowed (\`fermix sandbox env allow ${missingEnv[0]}\`)`;
      else status.visible = true;
      out.push(status);
    }
  }
  for (const [name, c] of Object.entries(configured)) {
    const status: CommandStatus = { name, source: 'config', command: c.command, args: c.args, pass_env: c.pass_env, timeout_ms: c.timeout_ms, description: c.description ?? `Run ${[c.command, ...c.args].join(' ')} in the sandbox.`, visible: false };
    if (!c.enabled) status.reason = 'disabled in config';
    else if (!NAME_PATTERN.test(name)) status.reason = 'the name must be 1–64 letters, digits, _ or -';
    else status.visible = true;
    out.push(status);
  }
  for (const s of out) {
    if (s.visible && options.reserved?.has(s.name)) {
      s.visible = false;
      s.reason = `the name ${s.name} is taken by a built-in tool; rename [sandbox.commands.${s.name}]`;
    }
  }
  return out;
}

/** The capabilities to register: one per visible command, all in the `sandbox_command` family. */
export function commandCapabilities(options: CommandOptions): Capability[] {
  return describeCommands(options).filter((s) => s.visible).map(toCapability);
}

/** Swaps the whole family atomically (a refused swap leaves the old family in place). */
export function applyCommandCapabilities(registry: CapabilityRegistry, options: CommandOptions): { removed: string[]; added: string[] } {
  return registry.replace_kind('builtin', { sandbox_command: true }, commandCapabilities(options));
}

function toCapability(s: CommandStatus): Capability {
  return {
    name: s.name,
    description: s.description,
    parameters: {
      type: 'object',
      properties: {
        args: { type: 'array', items: { type: 'string' }, description: `Arguments appended to \`${[s.command, ...s.args].join(' ')}\`, one per item.` },
        working_dir: { type: 'string', description: 'Folder to run in (default: the working directory); must be inside the sandbox roots.' },
      },
    },
    kind: 'builtin',
    hidden_from_agent: false,
    policy_class: 'exec',
    metadata: {
      category: 'system',
      sandbox_command: true,
      command_source: s.source,
      when_to_use: `You need ${s.command} itself; prefer the dedicated tools when they cover the task.`,
      examples: [],
      failure_modes: [
        { tag: 'sandbox_denied', description: 'working_dir is outside the sandbox roots' },
        { tag: 'sandbox_hardline', description: 'the command line matches a hardline rule' },
        { tag: 'timeout', description: `Command timed out after ${s.timeout_ms}ms` },
        { tag: 'exit_nonzero', description: 'Command failed (exit code N), followed by its output' },
        { tag: 'executable_not_found', description: `${s.command} is not installed` },
      ],
    },
    group: groupFor(s.name, 'system'),
    scope_requirements: ['process:spawn'],
    audit_behavior: 'redact_args',
    is_stateful: false,
    timeout_ms: s.timeout_ms + 10_000,
    executor: commandExecutor(s),
  };
}

function commandExecutor(s: CommandStatus): Executor {
  return async (args, context) => {
    const sandbox = sandboxOf(context);
    const extra = Array.isArray(args.args) ? args.args.map(String) : [];
    // As the shell tool: the request cwd counts only on a trusted local operator turn.
    const trusted = context.trust === 'operator' && (context.origin === 'cli' || context.origin === 'chat');
    const requestCwd = trusted ? context.cwd : undefined;
    const cwdUsable = requestCwd !== undefined && sandbox.policy.decide(requestCwd, 'write', { requestCwd }).allowed;
    const result = await runArgv(sandbox, {
      argv: [s.command, ...s.args, ...extra],
      working_dir: workingDir(typeof args.working_dir === 'string' ? args.working_dir : '', cwdUsable ? requestCwd : sandbox.workspace),
      timeout_ms: s.timeout_ms,
      passEnv: s.pass_env,
      signal: context.signal,
      requestCwd,
    });
    const lines = [...result.notes, result.output === '' ? '(no output)' : result.output.replace(/\n$/, '')];
    if (result.truncated) lines.push('[Output truncated.]');
    return { text: lines.join('\n'), data: { exit_code: result.exit_code, truncated: result.truncated, jailed: result.jailed } };
  };
}

/** Relative working dirs resolve against the request cwd when it counts (runShell would use the workspace). */
function workingDir(input: string, base: string): string {
  if (input === '') return base;
  return input.startsWith('/') || input === '~' || input.startsWith('~/') ? input : path.join(base, input);
}

function sandboxOf(context: ExecutionContext): Sandbox {
  const value = context.services?.sandbox as Partial<Sandbox> | undefined;
  if (value === undefined || typeof value.runShell !== 'function') {
    throw new FermixError({ code: 'service_unavailable', message: 'This command needs the sandbox service, which this daemon did not provide.', hint: 'This is a wiring bug in main/daemon/compose.ts; run `fermix doctor` and report it.', data: { service: 'sandbox' } });
  }
  return value as Sandbox;
}

export { findExecutable } from './executables.js';
