/**
 * `fermix sandbox explain --command CMD [--working-dir DIR] [--json]`: how the sandbox would treat a
 * shell command — the size cap, the hardline rule it hits (if any), whether it would run inside the
 * OS jail, its working directory and the names of the environment variables it would get — without
 * running anything. With a daemon running, the daemon answers (`sandbox.explain_command`: its jail,
 * its environment); otherwise the CLI works it out from config.toml and this shell's environment.
 * JSON (reference §2.18): `{"schema_version":1,"ok":true,"result":{…,"hardline":RULE|null,…}}`.
 */
import { homedir } from 'node:os';
import path from 'node:path';
import type { HomePaths } from '../../config/home.js';
import { isProcessAlive, readPid } from '../../daemon/pid-lock.js';
import { explainCommand, type CommandExplanation } from '../../sandbox/explain-command.js';
import { loadHardline, MAX_COMMAND_BYTES } from '../../sandbox/hardline.js';
import { createPathPolicy, jailStatus, type SandboxConfig } from '../../sandbox/index.js';
import { expandHome } from '../../sandbox/real-path.js';
import { callDaemon } from '../control-client.js';
import { EXIT, UsageError, type CliIo } from '../output.js';

const USAGE = 'usage: fermix sandbox explain --command CMD [--working-dir DIR] [--json]';

export interface ExplainCommandArgs {
  command: string;
  workingDir?: string;
}

/** `--command CMD`, `--command=CMD`, `--command -- WORD…`; `--working-dir DIR` anywhere. */
export function parseExplainArgs(words: string[]): ExplainCommandArgs {
  let command: string | undefined;
  let workingDir: string | undefined;
  for (let i = 0; i < words.length; i += 1) {
    const w = words[i];
    if (w === '--command') {
      if (words[i + 1] === '--') {
        command = words.slice(i + 2).join(' ');
        break;
      }
      command = words[i + 1];
      i += 1;
    } else if (w.startsWith('--command=')) command = w.slice('--command='.length);
    else if (w === '--working-dir' || w === '--cwd') {
      workingDir = words[i + 1];
      i += 1;
    } else if (w.startsWith('--working-dir=')) workingDir = w.slice('--working-dir='.length);
  }
  if (command === undefined) throw new UsageError(USAGE);
  if (workingDir === '') throw new UsageError(USAGE);
  return { command, workingDir };
}

export async function explainCommandVerb(io: CliIo, paths: HomePaths, config: SandboxConfig, words: string[], json: boolean): Promise<number> {
  const args = parseExplainArgs(words);
  const workingDir = args.workingDir === undefined ? undefined : path.resolve(process.cwd(), expandHome(args.workingDir, homedir()));
  const pid = readPid(paths.pidFile);
  let result: CommandExplanation | undefined;
  let source: 'daemon' | 'local' = 'local';
  if (pid !== undefined && isProcessAlive(pid)) {
    try {
      result = (await callDaemon(paths.socket, 'sandbox.explain_command', { command: args.command.slice(0, 256 * 1024), working_dir: workingDir }, 15_000)) as CommandExplanation;
      source = 'daemon';
    } catch {
      result = undefined; // an older daemon without the method: work it out here
    }
  }
  if (result === undefined) {
    await loadHardline();
    const workspace = path.resolve(config.workspace_root ?? paths.workspace);
    const policy = createPathPolicy({
      mode: config.mode,
      home: homedir(),
      fermixHome: paths.home,
      workspace,
      allowedRoots: config.allowed_roots,
      blockedRoots: config.blocked_roots,
    });
    const jail = await jailStatus({ enabled: config.jail.enabled, required: config.jail.required });
    result = explainCommand({ command: args.command, config, policy, workspace, home: homedir(), fermixHome: paths.home, jail, daemonEnv: process.env, workingDir });
  }
  if (json) io.out(JSON.stringify({ schema_version: 1, ok: true, result: { ...result, source } }));
  else io.out(forPeople(args.command, result, source));
  return EXIT.ok;
}

function forPeople(command: string, r: CommandExplanation, source: 'daemon' | 'local'): string {
  const shown = command.length > 120 ? `${command.slice(0, 117).replace(/\n/g, '⏎')}…` : command.replace(/\n/g, '⏎');
  const verdict = r.would_run ? 'would run' : `would be refused (${r.refused_by})`;
  const allowed = r.env.allowed.map((a) => `${a.name} (${a.source === 'helper' ? 'from its helper, not run now' : a.source === 'daemon' ? 'from the daemon environment' : 'from the keychain if stored, else not passed'})`);
  const lines = [
    `Command:      ${shown} (${r.command_bytes} bytes; limit ${MAX_COMMAND_BYTES})`,
    `Verdict:      ${verdict}`,
    `Hardline:     ${r.hardline === null ? 'no rule matches' : `${r.hardline} — ${r.hardline_description}: ${r.hardline_excerpt}`}`,
    `Read by:      ${r.readers.length === 0 ? '(not read: over the size cap)' : r.readers.join(', ')}`,
    `Working dir:  ${r.working_dir.path} (${r.working_dir.allowed ? 'allowed' : `refused: ${r.working_dir.reason}`})`,
    `OS jail:      ${r.jailed ? 'runs jailed' : `not jailed — ${r.jail.reason}${r.jail.required ? ' ([sandbox.jail] required: commands are refused)' : ''}`}`,
    `Environment:  ${r.env.names.join(', ')} (mode ${r.env.mode})`,
  ];
  if (allowed.length > 0) lines.push(`Allowed env:  ${allowed.join(', ')}`);
  lines.push(`Answered by:  ${source === 'daemon' ? 'the running daemon' : 'this CLI (no daemon running); nothing was run'}`);
  lines.push('The hardline is a courtesy check; the OS jail is the boundary.');
  return lines.join('\n');
}
