/**
 * Runs one git subcommand for git_read / git_write, through the sandbox (runArgv → runShell: the
 * working-dir gate, minimal env, redaction, process group, OS jail). Before the real command:
 * 1. the arguments are checked (git-guard.ts);
 * 2. one probe asks git where the repository really is (toplevel, git dir, common dir) and what its
 *    config says; each location must pass the sandbox policy — git walks *up* from the working dir,
 *    so a workspace without a repo inside a dotfiles-repo home would otherwise expose the home;
 * 3. repository-local config that runs programs is refused.
 */
import path from 'node:path';
import type { ExecutionContext, ToolResult } from '../core/capabilities/capability.js';
import { FermixError, isFermixError } from '../core/errors.js';
import type { Access, Sandbox } from '../sandbox/index.js';
import { argvCommand, runArgv } from '../sandbox/run-argv.js';
import { dangerousLocalConfig, GIT_SAFE_PREFIX, GIT_UNSET_ENV, parseConfigList } from './git-guard.js';
import { pathContext, servicesOf } from './tool-services.js';

export interface GitCall {
  tool: 'git_read' | 'git_write';
  access: Access;
  /** git's own options, before the subcommand. */
  globalFlags: string[];
  command: string;
  /** Extra fixed arguments placed right after the subcommand (e.g. --no-ext-diff). */
  fixed: string[];
  args: string[];
  repo?: string;
  timeoutMs: number;
}

/** Where repository problems go: git_read says `invalid_repo`; git_write has `sandbox_denied` / `git_failed`. */
function repoError(call: GitCall, message: string, hint: string, outsideRoots: boolean, data: Record<string, unknown> = {}): FermixError {
  const code = call.tool === 'git_read' ? 'invalid_repo' : outsideRoots ? 'sandbox_denied' : 'git_failed';
  return new FermixError({ code, message, hint, data });
}

const SEP = '\u0001fermix-git-probe\u0001';

export async function runGit(call: GitCall, context: ExecutionContext): Promise<ToolResult> {
  const { sandbox } = servicesOf(context, 'sandbox');
  const checkContext = pathContext(context, sandbox);
  const repoInput = call.repo !== undefined && call.repo !== '' ? call.repo : (checkContext.baseDir ?? sandbox.workspace);
  const decision = sandbox.policy.decide(repoInput, call.access, checkContext);
  if (!decision.allowed) {
    const error = decision.error as FermixError;
    throw repoError(call, error.message, error.hint, true, { ...error.data, repo: repoInput });
  }
  const cwd = decision.realPath as string;
  const layout = await probe(sandbox, call, cwd, checkContext.requestCwd, context.signal);
  for (const [label, location] of Object.entries(layout.locations)) {
    const check = sandbox.policy.decide(location, call.access, checkContext);
    if (!check.allowed) {
      throw repoError(
        call,
        `The repository's ${label} (${location}) is outside what the sandbox lets ${call.tool} ${call.access}: ${check.error?.message ?? check.reason}`,
        check.error?.hint ?? 'Grant the repository folder with `fermix grant path <repo>`.',
        true,
        { repo: cwd, [label.replace(/ /g, '_')]: location, reason: check.reason },
      );
    }
  }
  const risky = dangerousLocalConfig(parseConfigList(layout.config));
  if (risky !== undefined) {
    throw new FermixError({
      code: 'git_failed',
      message: `The repository config sets ${risky}, which makes git run a program; ${call.tool} does not run it.`,
      hint: `If you trust it, run git yourself in a terminal; otherwise remove it with \`git config --unset ${risky}\` in ${layout.locations.toplevel}.`,
      data: { repo: cwd, config_key: risky },
    });
  }
  const argv = ['git', ...GIT_SAFE_PREFIX, ...call.globalFlags, call.command, ...call.fixed, ...call.args];
  try {
    const result = await runArgv(sandbox, { argv, unsetEnv: GIT_UNSET_ENV, working_dir: cwd, timeout_ms: call.timeoutMs, signal: context.signal, requestCwd: checkContext.requestCwd });
    const text = result.output === '' ? '(no output)' : result.output.replace(/\n$/, '');
    return { text: result.truncated ? `${text}\n[Output truncated.]` : text, data: { repo: layout.locations.toplevel, command: call.command, truncated: result.truncated } };
  } catch (error) {
    throw gitFailure(call, error);
  }
}

/** exit_nonzero / executable_not_found become `git_failed` with git's own words; refusals and timeouts keep their tags. */
function gitFailure(call: GitCall, error: unknown): unknown {
  if (!isFermixError(error)) return error;
  if (error.code === 'executable_not_found') {
    return new FermixError({ code: 'git_failed', message: 'git is not installed or not on the sandbox PATH.', hint: 'Install git (e.g. `apt install git`), then restart the daemon.', data: error.data });
  }
  if (error.code !== 'exit_nonzero') return error;
  const output = typeof error.data?.output === 'string' ? error.data.output.trim() : '';
  return new FermixError({
    code: 'git_failed',
    message: `git ${call.command} failed (exit code ${String(error.data?.exit_code)}): ${output === '' ? 'no output' : output}`,
    hint: 'Read git\'s message above; fix the arguments or the repository state and try again.',
    data: { ...error.data, command: call.command },
  });
}

interface RepoLayout {
  locations: { toplevel: string; 'git dir': string; 'common dir': string };
  config: string;
}

/** One process: `rev-parse` for the real layout, then the config with scopes, split by a marker. */
async function probe(sandbox: Sandbox, call: GitCall, cwd: string, requestCwd: string | undefined, signal: AbortSignal): Promise<RepoLayout> {
  const revParse = ['git', ...GIT_SAFE_PREFIX, 'rev-parse', '--show-toplevel', '--absolute-git-dir', '--git-common-dir'];
  const config = ['git', ...GIT_SAFE_PREFIX, 'config', '--list', '--show-scope', '-z'];
  const command = `${argvCommand(revParse, GIT_UNSET_ENV, false)} && printf '%s' '${SEP}' && ${argvCommand(config)}`;
  let output: string;
  try {
    output = (await sandbox.runShell({ command, working_dir: cwd, timeout_ms: 15_000, signal, requestCwd })).output;
  } catch (error) {
    if (isFermixError(error) && error.code === 'exit_nonzero') {
      const said = typeof error.data?.output === 'string' ? error.data.output.trim().split('\n')[0] : '';
      throw repoError(call, `${cwd} is not inside a git work tree${said ? ` (${said})` : ''}.`, 'Pass `repo`: a folder inside a git repository (create one with `git init` in the shell).', false, { repo: cwd });
    }
    if (isFermixError(error) && error.code === 'invalid_working_dir') {
      throw repoError(call, `Repository folder not found: ${cwd}.`, 'Pass `repo`: an existing folder inside a git repository.', false, { repo: cwd });
    }
    throw gitFailure(call, error);
  }
  const at = output.indexOf(SEP);
  // The last three lines: stderr is merged, so a git warning may come first.
  const lines = output.slice(0, at === -1 ? output.length : at).split('\n').map((l) => l.trim()).filter((l) => l !== '').slice(-3);
  if (at === -1 || lines.length < 3 || !path.isAbsolute(lines[0]) || !path.isAbsolute(lines[1])) {
    throw repoError(call, `${cwd} is not a git work tree git_read/git_write can use (bare repository?).`, 'Pass `repo`: a folder inside a non-bare git repository.', false, { repo: cwd });
  }
  return {
    locations: { toplevel: lines[0], 'git dir': lines[1], 'common dir': path.resolve(cwd, lines[2]) },
    config: output.slice(at + SEP.length),
  };
}
