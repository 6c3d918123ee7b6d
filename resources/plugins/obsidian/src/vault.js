// @ts-check
/**
 * Vault confinement for the Obsidian MCP server. Every path the model gives is relative to the vault;
 * it is resolved, then the real path (symlinks followed) of the target — or of its parent, for a note
 * that does not exist yet — must still lie inside the vault's real path. A symlink that points out of
 * the vault is therefore refused, whichever segment it sits on. Writes open with O_NOFOLLOW, so a
 * symlink swapped in after the check is refused by the kernel instead of followed.
 */
import { constants, lstatSync, mkdirSync, openSync, closeSync, readdirSync, readFileSync, realpathSync, statSync, writeSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

export const MAX_NOTE_BYTES = 1024 * 1024;
const MAX_WALK_FILES = 20_000;

export class VaultError extends Error {}

/** @param {string} vault @returns {string} */
export function openVault(vault) {
  if (!vault) throw new VaultError('OBSIDIAN_VAULT_PATH is not set; set it with `fermix plugins config set obsidian OBSIDIAN_VAULT_PATH /path/to/vault`.');
  let real;
  try {
    real = realpathSync(vault);
  } catch {
    throw new VaultError(`The vault folder ${vault} does not exist; fix it with \`fermix plugins config set obsidian OBSIDIAN_VAULT_PATH /path/to/vault\`.`);
  }
  if (!statSync(real).isDirectory()) throw new VaultError(`The vault path ${vault} is not a folder.`);
  return real;
}

/** @param {string} root @param {string} candidate */
function inside(root, candidate) {
  const rel = relative(root, candidate);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** @param {string} root @param {unknown} path @param {{ note?: boolean }} [options] @returns {{ full: string, rel: string }} */
export function resolveInVault(root, path, options = {}) {
  if (typeof path !== 'string') throw new VaultError('path must be a string relative to the vault.');
  if (isAbsolute(path)) throw new VaultError(`path must be relative to the vault, not absolute (${path}).`);
  let rel = path.replace(/\\/g, '/').replace(/^\.\//, '');
  if (options.note && rel !== '' && !rel.toLowerCase().endsWith('.md')) rel = `${rel}.md`;
  const full = resolve(root, rel);
  if (!inside(root, full)) throw new VaultError(`${path} is outside the vault.`);
  // The nearest existing ancestor (or the target itself) must really be inside: this catches symlinks.
  let probe = full;
  for (;;) {
    let exists = true;
    try {
      lstatSync(probe);
    } catch {
      exists = false;
    }
    if (exists) {
      const real = realpathSync(probe);
      if (!inside(root, real)) throw new VaultError(`${path} leads out of the vault through a symlink, so it is refused.`);
      break;
    }
    const parent = dirname(probe);
    if (parent === probe) break;
    probe = parent;
  }
  return { full, rel: relative(root, full).split(sep).join('/') };
}

/** @param {string} root @param {string} path */
export function readNote(root, path) {
  const { full, rel } = resolveInVault(root, path, { note: true });
  let stat;
  try {
    stat = statSync(full);
  } catch {
    throw new VaultError(`There is no note ${rel} in the vault.`);
  }
  if (!stat.isFile()) throw new VaultError(`${rel} is not a note.`);
  if (stat.size > MAX_NOTE_BYTES) throw new VaultError(`${rel} is larger than ${MAX_NOTE_BYTES} bytes.`);
  return { path: rel, content: readFileSync(full, 'utf8') };
}

/** @param {string} root @param {string} path @param {string} content */
export function createNote(root, path, content) {
  const { full, rel } = resolveInVault(root, path, { note: true });
  mkdirSync(dirname(full), { recursive: true });
  // Folders created just now are re-checked: the real parent must still be in the vault.
  resolveInVault(root, rel);
  let fd;
  try {
    // O_EXCL: an existing note (or a symlink in its place) is never overwritten.
    fd = openSync(full, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o644);
  } catch (error) {
    if (/** @type {NodeJS.ErrnoException} */ (error).code === 'EEXIST') throw new VaultError(`The note ${rel} already exists; creating it again would overwrite it, so nothing was written (use obsidian_append_note).`);
    throw error;
  }
  try {
    writeSync(fd, content);
  } finally {
    closeSync(fd);
  }
  return { path: rel, created: true, bytes: Buffer.byteLength(content) };
}

/** @param {string} root @param {string} path @param {string} content */
export function appendNote(root, path, content) {
  const { full, rel } = resolveInVault(root, path, { note: true });
  let fd;
  try {
    // No O_CREAT: a missing note is refused, never created.
    fd = openSync(full, constants.O_WRONLY | constants.O_APPEND | constants.O_NOFOLLOW);
  } catch (error) {
    const code = /** @type {NodeJS.ErrnoException} */ (error).code;
    if (code === 'ENOENT') throw new VaultError(`There is no note ${rel} to append to; nothing was written (use obsidian_create_note).`);
    if (code === 'ELOOP') throw new VaultError(`${rel} is a symlink, so it is refused.`);
    throw error;
  }
  try {
    writeSync(fd, content);
  } finally {
    closeSync(fd);
  }
  return { path: rel, appended: true, bytes: Buffer.byteLength(content) };
}

/** @param {string} root @param {string} [path] */
export function listFolder(root, path = '') {
  const { full, rel } = resolveInVault(root, path);
  if (!statSync(full).isDirectory()) throw new VaultError(`${rel || '.'} is not a folder.`);
  const entries = readdirSync(full, { withFileTypes: true })
    .filter((entry) => !entry.name.startsWith('.'))
    .map((entry) => ({ name: entry.name, kind: entry.isDirectory() ? 'folder' : entry.isSymbolicLink() ? 'symlink' : entry.name.toLowerCase().endsWith('.md') ? 'note' : 'file' }))
    .sort((a, b) => a.name.localeCompare(b.name));
  return { path: rel, entries };
}

/** Walks the vault without following symlinks (a link out of the vault is never searched). @param {string} root */
function* markdownFiles(root) {
  const stack = [''];
  let seen = 0;
  while (stack.length > 0) {
    const relDir = /** @type {string} */ (stack.pop());
    for (const entry of readdirSync(join(root, relDir), { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue; // .obsidian, .trash, .git
      const rel = relDir === '' ? entry.name : `${relDir}/${entry.name}`;
      if (entry.isDirectory()) stack.push(rel);
      else if (entry.isFile() && entry.name.toLowerCase().endsWith('.md')) {
        if ((seen += 1) > MAX_WALK_FILES) return;
        yield rel;
      }
    }
  }
}

/** @param {string} root @param {string} query @param {number} limit */
export function searchNotes(root, query, limit) {
  const needle = query.toLowerCase();
  const results = [];
  for (const rel of [...markdownFiles(root)].sort()) {
    const full = join(root, rel);
    if (statSync(full).size > MAX_NOTE_BYTES) continue;
    const text = readFileSync(full, 'utf8');
    const nameHit = rel.toLowerCase().includes(needle);
    const line = text.split('\n').find((candidate) => candidate.toLowerCase().includes(needle));
    if (!nameHit && line === undefined) continue;
    results.push({ path: rel, snippet: (line ?? text.split('\n')[0] ?? '').trim().slice(0, 200) });
    if (results.length >= limit) break;
  }
  return { query, results };
}
