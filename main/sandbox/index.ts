/**
 * Public surface of main/sandbox — the only module that spawns processes. The composition root
 * builds one jail (createJail) and one sandbox (createSandbox); file tools use `sandbox.policy`,
 * the shell tool `sandbox.runShell`, the CLI `policy.explain` / `policy.checkGrant` / `jailStatus`.
 */
export { sandboxConfigSchema, ENV_LIMITS, BASE_ENV_NAMES } from './sandbox-config.js';
export type { SandboxConfig, SandboxConfigInput, SandboxEnvConfig, SandboxCommandConfig, SandboxJailConfig, SandboxMode, CommandProfile } from './sandbox-config.js';
export { createPathPolicy } from './path-policy.js';
export type { PathPolicy, PathPolicyOptions, PathDecision, DenyReason, Access, CheckContext, GrantCheck } from './path-policy.js';
export { findHardline, checkHardline, explainHardline, loadHardline, hardlineParserStatus, HARDLINE_RULES, MAX_COMMAND_BYTES } from './hardline.js';
export type { HardlineHit, HardlineRule, HardlineContext, HardlineReport } from './hardline.js';
export { buildChildEnv, createRedactor, DEFAULT_DENY, HELPER_BUDGET_MS } from './env.js';
export type { BuildEnvOptions, ChildEnv, Redactor, UnresolvedReason } from './env.js';
export { createCommandRunner, commandFailure, DEFAULT_TIMEOUT_MS, DEFAULT_MAX_OUTPUT_BYTES } from './runner.js';
export type { CommandRunner, RunOptions, RunResult, CommandWrapper } from './runner.js';
export { createJail, jailStatus, bwrapArgv } from './jail.js';
export type { Jail, JailStatus, JailPlan, JailOptions } from './jail.js';
export { createSandbox } from './sandbox.js';
export type { Sandbox, SandboxOptions, SandboxEvent, ShellRequest, ShellResult } from './sandbox.js';
export { runArgv, argvCommand, quoteArg } from './run-argv.js';
export type { ArgvRequest } from './run-argv.js';
export { createSwappableSandbox } from './swappable.js';
export type { SwappableSandbox } from './swappable.js';
export { createDirectoryAccess, persistGrant, configDiff, DIRECTORY_TOKEN_TTL_MS } from './directory-access.js';
export type { DirectoryAccess, DirectoryAccessOptions, DirectoryAccessRequest, PendingDirectoryGrant, DirectoryOutcome } from './directory-access.js';
export { applyCommandCapabilities, commandCapabilities, describeCommands, COMMAND_PRESETS } from './command-capabilities.js';
export type { CommandStatus, CommandOptions, PresetName } from './command-capabilities.js';
