/**
 * PromptFiles (reference §1 "memory/<agent>/: USER.md and MEMORY.md, derived from the database; the
 * database is canonical"): after every memory write or forget, the two files are rebuilt from the rows
 * whose promote target names them — identity/preference/interest/goal → USER.md, context/directive →
 * MEMORY.md, job memories in neither (admission.ts promoteTarget). Only memories the owner's side wrote go
 * in (a guest's never do), the files are the owner's (0600 in a 0700 folder), and they are written
 * whole through a temporary file so a reader never sees half of one. Nothing reads them back: the
 * prompt is built from the database (prompt.ts), and guests are never sent either file.
 */
import { chmodSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MemoryRow } from './admission.js';
import type { MemoryStore } from './store.js';

export const PROMPT_FILES = { user_md: 'USER.md', memory_md: 'MEMORY.md' } as const;

const TITLES: Record<keyof typeof PROMPT_FILES, string> = {
  user_md: 'What Fermix knows about you',
  memory_md: 'What Fermix keeps in mind for its work',
};

function render(target: keyof typeof PROMPT_FILES, rows: readonly MemoryRow[]): string {
  const lines = rows.map((row) => `- **${row.key.replace(/\s+/g, ' ')}** (${row.category}): ${row.value.replace(/\s*\n\s*/g, ' ')}`);
  return [
    `# ${TITLES[target]}`,
    '',
    'Derived from the memory database, which is canonical: edits here are overwritten. `fermix memory list` shows the memories, `fermix memory forget ID` removes one.',
    '',
    ...(lines.length > 0 ? lines : ['(nothing yet)']),
    '',
  ].join('\n');
}

/** True when `path` already holds exactly `text`, owner-only: every daemon start rebuilds the files, and most find them current. */
function alreadyWritten(path: string, text: string): boolean {
  try {
    return (statSync(path).mode & 0o777) === 0o600 && readFileSync(path, 'utf8') === text;
  } catch {
    return false;
  }
}

function writeWhole(path: string, text: string): void {
  if (alreadyWritten(path, text)) return;
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, text, { mode: 0o600 });
  renameSync(temporary, path);
  chmodSync(path, 0o600);
}

/** Rewrites USER.md and MEMORY.md in `dir` from the store; returns how many memories each holds. */
export function rebuildPromptFiles(store: Pick<MemoryStore, 'list'>, dir: string): Record<keyof typeof PROMPT_FILES, number> {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  const rows = store.list({ writtenBy: 'operator' });
  const counts = { user_md: 0, memory_md: 0 };
  for (const target of Object.keys(PROMPT_FILES) as (keyof typeof PROMPT_FILES)[]) {
    const chosen = rows.filter((row) => row.promote_target === target);
    counts[target] = chosen.length;
    writeWhole(join(dir, PROMPT_FILES[target]), render(target, chosen));
  }
  return counts;
}
