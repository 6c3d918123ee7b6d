import { didYouMean, knownKeysAt } from './did-you-mean.js';
import { existsSync, readFileSync, renameSync, writeFileSync, openSync, fsyncSync, closeSync } from 'node:fs';
import { dirname, basename, join } from 'node:path';
import { parse, stringify, TomlError } from 'smol-toml';
import type { z } from 'zod';
import { FermixError } from '../core/errors.js';
import { configSchema, type FermixConfig } from './schema.js';
import { ONE_SHOT_PARSE } from '../core/one-shot-parse.js';

export interface LoadedConfig {
  config: FermixConfig;
  /** The raw TOML table as written by the person (without defaults), for edits that keep it small. */
  raw: Record<string, unknown>;
  exists: boolean;
}

/** Reads and validates config.toml. A missing file means all defaults. Errors name file, line and key. */
export function loadConfig(file: string): LoadedConfig {
  if (!existsSync(file)) return { config: configSchema.parse({}, ONE_SHOT_PARSE), raw: {}, exists: false };
  const source = readFileSync(file, 'utf8');
  return { ...parseConfigSource(source, file), exists: true };
}

export function parseConfigSource(source: string, file: string): { config: FermixConfig; raw: Record<string, unknown> } {
  let raw: Record<string, unknown>;
  try {
    raw = parse(source) as Record<string, unknown>;
  } catch (error) {
    const line = error instanceof TomlError ? error.line : undefined;
    const column = error instanceof TomlError ? error.column : undefined;
    const where = line ? `${file}:${line}${column ? `:${column}` : ''}` : file;
    throw new FermixError({
      code: 'config_syntax',
      message: `${where}: TOML syntax error: ${firstLine(error)}.`,
      hint: `Fix the line in ${file}, then run \`fermix config validate\`.`,
      data: { file, line, column },
      cause: error,
    });
  }
  const parsed = configSchema.safeParse(raw, ONE_SHOT_PARSE);
  if (!parsed.success) throw configError(parsed.error.issues, source, file);
  return { config: parsed.data, raw };
}

function configError(issues: z.core.$ZodIssue[], source: string, file: string): FermixError {
  const problems = issues.flatMap((issue): { key: string; line: number | undefined; problem: string; suggestion?: string }[] => {
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => {
        const path = [...issue.path.map(String), key];
        const suggestion = didYouMean(key, knownKeysAt(configSchema, issue.path.map(String)));
        return { key: path.join('.'), line: locateKeyLine(source, path), problem: 'unknown key', ...(suggestion ? { suggestion: [...issue.path.map(String), suggestion].join('.') } : {}) };
      });
    }
    const path = issue.path.map(String);
    return [{ key: path.join('.') || '(file)', line: locateKeyLine(source, path), problem: issue.message }];
  });
  const first = problems[0];
  const where = first.line ? `${file}:${first.line}` : file;
  return new FermixError({
    code: 'config_invalid',
    message: `${where}: ${first.problem} "${first.key}"${first.suggestion ? ` (did you mean "${first.suggestion}"?)` : ''}${problems.length > 1 ? ` (and ${problems.length - 1} more problem(s))` : ''}.`,
    hint: first.suggestion ? `Rename it to ${first.suggestion.split('.').at(-1)} in ${file}, then run \`fermix config validate\`.` : `Edit ${file} (remove or correct the key), then run \`fermix config validate\`.`,
    data: { file, problems },
  });
}

/**
 * Finds the line of a key path in TOML source. smol-toml reports no positions for valid documents,
 * so this walks the lines, tracking the current [table] header. Good enough for tables, dotted
 * headers and `key = value` lines, which is how people write config.toml.
 */
export function locateKeyLine(source: string, path: string[]): number | undefined {
  if (path.length === 0) return undefined;
  const lines = source.split(/\r?\n/);
  let table: string[] = [];
  const unquote = (segment: string) => segment.trim().replace(/^["']|["']$/g, '');
  const same = (a: string[], b: string[]) => a.length === b.length && a.every((part, index) => part === b[index]);
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index].trim();
    const header = /^\[\[?([^\]]+)\]\]?/.exec(line);
    if (header) {
      table = header[1].split('.').map(unquote);
      // The key itself may be a table: [providers.local.extra] for path providers.local.extra.
      if (same(table, path)) return index + 1;
      continue;
    }
    const assignment = /^([^=#]+?)\s*=/.exec(line);
    if (!assignment) continue;
    const keyPath = [...table, ...assignment[1].split('.').map(unquote)];
    if (same(keyPath, path) || same(keyPath.slice(0, path.length), path)) return index + 1;
  }
  // Fall back to the nearest table header that starts the path.
  return path.length > 1 ? locateKeyLine(source, path.slice(0, -1)) : undefined;
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0].replace(/\.$/, '');
}

/** Writes config atomically (temp file + fsync + rename) so a crash never leaves half a file. */
export function writeConfigAtomically(file: string, text: string): void {
  const temp = join(dirname(file), `.${basename(file)}.${process.pid}.tmp`);
  writeFileSync(temp, text, { mode: 0o600 });
  const fd = openSync(temp, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, file);
}

const HEADER = '# Fermix configuration. Edited by Fermix and by you; `fermix config validate` checks it.\n\n';

/**
 * Applies an edit to the person's own table (not the defaults) and writes it back, validated first,
 * so a bad edit never reaches the file. Comments are not preserved by the TOML library; the header says so.
 */
export function updateConfig(file: string, edit: (raw: Record<string, unknown>) => void): FermixConfig {
  const { raw } = loadConfig(file);
  const next = structuredClone(raw);
  edit(next);
  const text = HEADER + stringify(next) + '\n';
  const { config } = parseConfigSource(text, file);
  writeConfigAtomically(file, text);
  return config;
}
