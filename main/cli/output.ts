import { formatErrorForPeople, isFermixError, type WireError } from '../core/errors.js';
import { cliCommand, localizeHint } from './invocation.js';

/** Exit codes, as Fermix: 0 ok, 1 refusal/failure, 2 usage error, 3 daemon not running. */
export const EXIT = { ok: 0, failure: 1, usage: 2, daemonDown: 3 } as const;

export class UsageError extends Error {}

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
}

export const processIo: CliIo = {
  out: (text) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
  err: (text) => process.stderr.write(text.endsWith('\n') ? text : `${text}\n`),
};

/**
 * Prints a verb's answer: the reference's `--json` envelope (`{"schema_version":1,"ok":true,"result":…}`)
 * or, for people, whatever `human` writes. Returns the exit code of a success.
 */
export function printResult(io: CliIo, json: boolean, result: unknown, human: () => void): number {
  if (json) io.out(JSON.stringify({ schema_version: 1, ok: true, result }));
  else human();
  return EXIT.ok;
}

/**
 * A usage error's text as printed after "fermix: ": without a leading "fermix " (verbs write "fermix mcp
 * tools needs a server name", which printed "fermix: fermix mcp …") and with quoted commands localized.
 */
export function usageSentence(message: string): string {
  return localizeHint(message.replace(/^fermix /, ''));
}

/** Prints an error for people (or as JSON) and returns the exit code it deserves. */
export function reportError(io: CliIo, error: unknown, json: boolean): number {
  if (error instanceof UsageError) {
    io.err(`fermix: ${usageSentence(error.message)}\nRun \`${cliCommand('help')}\` for usage.`);
    return EXIT.usage;
  }
  const raw: WireError = isFermixError(error)
    ? error.toWire()
    : { code: 'internal_error', message: (error as Error)?.message ?? String(error), hint: 'Run `fermix doctor`; report the problem if it persists.' };
  // Hints are written as `fermix …` everywhere (daemon included); print the spelling that works from here.
  const wire: WireError = { ...raw, hint: localizeHint(raw.hint) };
  // §2.18's envelope names the message `sentence`; `message` stays for the programs that read it already.
  if (json) io.out(JSON.stringify({ schema_version: 1, ok: false, error: { ...wire, sentence: wire.message } }));
  else io.err(`fermix: ${formatErrorForPeople(wire)}`);
  return wire.code === 'daemon_not_running' ? EXIT.daemonDown : EXIT.failure;
}
