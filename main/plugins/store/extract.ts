/**
 * Reads a plugin artifact with tar's parser, checks every entry, and only then writes the files itself:
 * what lands on disk is exactly what was checked. Refused (each with its own code): symlinks, hardlinks,
 * devices/FIFOs, absolute or `..` paths, top-level entries outside the allowlist of reference §3.1, and
 * executable files in data-only artifacts (http-rail and remote-MCP plugins run no local code).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ReadEntry } from 'tar';
import { FermixError } from '../../core/errors.js';
import type { TreeFile } from './tree-digest.js';

const MAX_ENTRIES = 5_000;
const MAX_TOTAL_BYTES = 64 * 1024 * 1024;
const DATA_TOP_LEVEL = new Set(['plugin.json', 'skills', 'assets', 'CHANGELOG.md', 'README.md', 'LICENSE', 'yanked.json']);
const CODE_TOP_LEVEL = new Set(['src', 'bin', 'package.json', 'package-lock.json', 'pyproject.toml', 'uv.lock', 'requirements.txt', 'mix.exs', 'mix.lock']);

export interface ArtifactFile extends TreeFile {
  executable: boolean;
}

function refuse(code: string, path: string, why: string): FermixError {
  return new FermixError({ code, message: `The plugin artifact entry "${path}" ${why}, so the install was refused.`, hint: 'The artifact is malformed or hostile; nothing was installed. Report it to the plugin publisher.', data: { entry: path } });
}

function checkPath(raw: string): string {
  const path = raw.replace(/^\.\//, '').replace(/\/$/, '');
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path) || path.includes('\\')) throw refuse('artifact_absolute_path', raw, 'has an absolute path');
  if (path.split('/').some((part) => part === '..')) throw refuse('artifact_path_escape', raw, 'climbs out of the plugin directory with ..');
  if (path === '' || path.split('/').some((part) => part === '' || part === '.')) throw refuse('artifact_path_escape', raw, 'has an empty or "." path segment');
  return path;
}

/** Parses a .tar.gz in memory and returns its files, refusing anything but plain files and directories. */
export async function readArtifact(bytes: Buffer): Promise<ArtifactFile[]> {
  const files: ArtifactFile[] = [];
  let total = 0;
  let failure: Error | undefined;
  // tar is loaded with the first install, not with the daemon (start-up pays for what it runs).
  const { Parser } = await import('tar');
  const parser = new Parser({
    strict: true,
    onReadEntry: (entry: ReadEntry) => {
      if (failure) return entry.resume();
      try {
        if (files.length >= MAX_ENTRIES) throw refuse('artifact_too_large', entry.path, `is past the ${MAX_ENTRIES}-entry limit`);
        const path = checkPath(entry.path);
        if (entry.type === 'SymbolicLink') throw refuse('artifact_symlink', entry.path, 'is a symlink');
        if (entry.type === 'Link') throw refuse('artifact_hardlink', entry.path, 'is a hardlink');
        if (entry.type === 'Directory') return entry.resume();
        if (entry.type !== 'File' && entry.type !== 'OldFile' && entry.type !== 'ContiguousFile') throw refuse('artifact_special_file', entry.path, `is a ${entry.type} (devices and FIFOs are not allowed)`);
        const chunks: Buffer[] = [];
        entry.on('data', (chunk: Buffer) => {
          total += chunk.length;
          if (total > MAX_TOTAL_BYTES) failure ??= refuse('artifact_too_large', entry.path, `takes the artifact past ${MAX_TOTAL_BYTES} bytes`);
          else chunks.push(chunk);
        });
        entry.on('end', () => files.push({ path, content: Buffer.concat(chunks), executable: ((entry.mode ?? 0) & 0o111) !== 0 }));
      } catch (error) {
        failure = error as Error;
        entry.resume();
      }
    },
  });
  await new Promise<void>((resolve, reject) => {
    parser.on('error', reject);
    parser.on('finish', resolve);
    parser.on('end', resolve);
    parser.end(bytes);
  }).catch((error: unknown) => {
    failure ??= new FermixError({ code: 'artifact_corrupt', message: `The plugin artifact is not a readable tar.gz (${(error as Error).message}).`, hint: 'Run `fermix plugins install NAME` again; reinstall Fermix if it persists.' });
  });
  if (failure) throw failure;
  return files;
}

/** The content allowlist; `localCode` is true only for plugins whose manifest declares a local MCP runtime. */
export function checkArtifactContents(files: readonly ArtifactFile[], localCode: boolean): void {
  if (!files.some((file) => file.path === 'plugin.json')) throw refuse('artifact_unexpected_entry', 'plugin.json', 'is missing (the manifest must sit at the archive root)');
  for (const file of files) {
    const top = file.path.split('/')[0];
    if (top.startsWith('.')) throw refuse('artifact_unexpected_entry', file.path, 'is a dotfile');
    if (!DATA_TOP_LEVEL.has(top) && !(localCode && CODE_TOP_LEVEL.has(top))) throw refuse('artifact_unexpected_entry', file.path, 'is not an allowed top-level entry');
    if (!localCode && file.executable) throw refuse('artifact_executable', file.path, 'is executable, but this plugin runs no local code');
  }
}

export function writeArtifactFiles(files: readonly ArtifactFile[], dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  for (const file of files) {
    const target = join(dir, file.path);
    mkdirSync(dirname(target), { recursive: true, mode: 0o700 });
    // 'wx': a path given twice in one archive is refused instead of silently overwritten.
    writeFileSync(target, file.content, { mode: file.executable ? 0o700 : 0o600, flag: 'wx' });
  }
}
