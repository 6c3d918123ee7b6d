/**
 * Runs an argv (git, a command preset) through the same door as the shell tool: `sandbox.runShell`,
 * so the working-dir gate, hardline, minimal env, redaction, process group and OS jail all apply and
 * the sandbox stays the only module that spawns. The argv is single-quoted into one `exec` line, so
 * no word of it is ever parsed as shell syntax.
 */
import { FermixError, isFermixError } from '../core/errors.js';
import type { Sandbox, ShellRequest, ShellResult } from './sandbox.js';

export interface ArgvRequest extends Omit<ShellRequest, 'command'> {
  argv: string[];
  /** Variables to drop from the child env first (e.g. GIT_DIR when `[sandbox.env] mode = "all"`). */
  unsetEnv?: string[];
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** POSIX single-quoting: `'` becomes `'\''`; everything else is literal inside quotes. */
export function quoteArg(arg: string): string {
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** `exec: false` leaves the shell alive after the program, to chain another command with `&&`. */
export function argvCommand(argv: string[], unsetEnv: string[] = [], exec = true): string {
  if (argv.length === 0 || argv[0] === '') {
    throw new FermixError({ code: 'invalid_command', message: 'No program to run.', hint: 'Pass the executable as the first argv item.' });
  }
  if (argv.some((a) => a.includes('\0'))) {
    throw new FermixError({ code: 'invalid_command', message: 'An argument contains a NUL byte.', hint: 'Remove the NUL byte from the arguments.' });
  }
  const bad = unsetEnv.find((n) => !ENV_NAME.test(n));
  if (bad !== undefined) throw new FermixError({ code: 'invalid_command', message: `Not an env name: ${bad}.`, hint: 'Pass shell identifiers to unsetEnv.' });
  const unset = unsetEnv.length > 0 ? `unset ${unsetEnv.join(' ')}; ` : '';
  return `${unset}${exec ? 'exec ' : ''}${argv.map(quoteArg).join(' ')}`;
}

/**
 * Throws what runShell throws (sandbox_denied, timeout, exit_nonzero with data.output, …), except
 * that `exec` reporting a missing program (`sh: 1: exec: foo: not found`, exit 127, a shape the
 * runner's shell-line parser does not know) becomes `executable_not_found`.
 */
export async function runArgv(sandbox: Sandbox, request: ArgvRequest): Promise<ShellResult> {
  const { argv, unsetEnv, ...rest } = request;
  try {
    return await sandbox.runShell({ ...rest, command: argvCommand(argv, unsetEnv) });
  } catch (error) {
    if (isFermixError(error) && error.code === 'exit_nonzero' && error.data?.exit_code === 127 && typeof error.data.output === 'string'
      && error.data.output.includes(`exec: ${argv[0]}: not found`)) {
      throw new FermixError({
        code: 'executable_not_found',
        message: `Executable not found: ${argv[0]}.`,
        hint: 'Install it, or check the PATH the sandbox passes (`fermix sandbox status`).',
        data: { ...error.data, executable: argv[0] },
      });
    }
    throw error;
  }
}
