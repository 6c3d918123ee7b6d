/**
 * Skill discovery (reference §2.4 "Loading", "Plugin skills"). Trust comes from where a SKILL.md lives,
 * never from what it says: bundled resources/skills/ and $FERMIX_HOME/skills/ load as operator;
 * skills shipped by installed plugins (skills/<skill>/SKILL.md, declared in the manifest's `skills`)
 * load as guest. A malformed file, a name that collides with a capability or an earlier skill, or a
 * plugin path that leaves the plugin is skipped with an error line — discovery never throws.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { Trust } from '../core/capabilities/capability.js';
import { isFermixError } from '../core/errors.js';
import { parseSkill, type SkillDefinition } from './skill-file.js';

export type SkillSource = 'bundled' | 'local' | 'plugin';

export interface LoadedSkill extends SkillDefinition {
  trust: Trust;
  source: SkillSource;
  /** The skill's directory (reference files live in references/ under it). */
  dir: string;
  file: string;
  /** Set on plugin-shipped skills. */
  plugin?: string;
  /** Content hash of SKILL.md, so reload can report `changed`. */
  digest: string;
}

export interface SkillLocations {
  bundledDir?: string;
  localDir: string;
  /** $FERMIX_HOME/plugins: installed/<name>/current names the active version directory. */
  pluginsDir?: string;
}

export interface LoadResult {
  skills: LoadedSkill[];
  errors: string[];
}

function digestOf(text: string): string {
  // Native: a hash loop in JavaScript ran interpreted at start-up (~2 ms for three small skills, decision 0027).
  return `${text.length}:${createHash('sha256').update(text).digest('hex').slice(0, 16)}`;
}

function skillDirs(root: string): string[] {
  if (!existsSync(root)) return [];
  // _archive/ holds skills moved aside (reference §2.4 curation); they do not load.
  return readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('_') && !entry.name.startsWith('.'))
    .map((entry) => join(root, entry.name))
    .sort();
}

function readSkill(file: string, dir: string, trust: Trust, source: SkillSource, plugin?: string): LoadedSkill {
  const text = readFileSync(file, 'utf8');
  const definition = parseSkill(text, file);
  return { ...definition, trust, source, dir, file, digest: digestOf(text), ...(plugin ? { plugin } : {}) };
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

function pluginSkillFiles(pluginsDir: string, errors: string[]): { plugin: string; name: string; file: string; dir: string }[] {
  const installed = join(pluginsDir, 'installed');
  if (!existsSync(installed)) return [];
  const out: { plugin: string; name: string; file: string; dir: string }[] = [];
  for (const entry of readdirSync(installed, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const pointer = join(installed, entry.name, 'current');
    if (!existsSync(pointer)) continue;
    const root = join(installed, entry.name, readFileSync(pointer, 'utf8').trim());
    let manifest: { name?: unknown; skills?: unknown };
    try {
      manifest = JSON.parse(readFileSync(join(root, 'plugin.json'), 'utf8')) as typeof manifest;
    } catch (error) {
      errors.push(`plugin ${entry.name}: plugin.json could not be read (${(error as Error).message})`);
      continue;
    }
    if (!Array.isArray(manifest.skills)) continue;
    const realRoot = realpathSync(root);
    for (const declared of manifest.skills as { name?: unknown; path?: unknown }[]) {
      const name = typeof declared?.name === 'string' ? declared.name : '';
      const path = typeof declared?.path === 'string' ? declared.path : '';
      if (name === '' || path === '') {
        errors.push(`plugin ${entry.name}: a skills entry needs name and path`);
        continue;
      }
      if (name === manifest.name || name === entry.name) {
        errors.push(`plugin ${entry.name}: skill ${name} has the plugin's own name, so it was skipped`);
        continue;
      }
      const target = resolve(root, path);
      const file = target.endsWith('SKILL.md') ? target : join(target, 'SKILL.md');
      let real: string;
      try {
        real = realpathSync(file);
      } catch {
        errors.push(`plugin ${entry.name}: skill ${name} has no SKILL.md at ${path}`);
        continue;
      }
      // The path (after symlinks) must stay inside the plugin directory.
      if (!inside(realRoot, real)) {
        errors.push(`plugin ${entry.name}: skill ${name} path ${path} leaves the plugin directory, so it was skipped`);
        continue;
      }
      out.push({ plugin: entry.name, name, file: real, dir: join(real, '..') });
    }
  }
  return out;
}

/**
 * Every skill, in precedence order: local ($FERMIX_HOME/skills) over bundled, both over plugins.
 * `reserved` holds capability names (a skill may not shadow a tool).
 */
export function loadSkills(locations: SkillLocations, reserved: ReadonlySet<string>): LoadResult {
  const errors: string[] = [];
  const byName = new Map<string, LoadedSkill>();
  const take = (load: () => LoadedSkill, label: string) => {
    let skill: LoadedSkill;
    try {
      skill = load();
    } catch (error) {
      errors.push(isFermixError(error) ? error.message : `${label}: ${(error as Error).message}`);
      return;
    }
    if (reserved.has(skill.name)) {
      errors.push(`${skill.file}: skill name ${skill.name} collides with a capability, so it was skipped`);
      return;
    }
    const earlier = byName.get(skill.name);
    if (earlier) {
      // A local copy of a bundled skill is the owner's edit of it: it replaces the bundled one.
      if (earlier.source === 'bundled' && skill.source === 'local') byName.set(skill.name, skill);
      else errors.push(`${skill.file}: a skill named ${skill.name} is already loaded from ${earlier.file}, so it was skipped`);
      return;
    }
    byName.set(skill.name, skill);
  };
  for (const [root, source] of [[locations.bundledDir, 'bundled'], [locations.localDir, 'local']] as const) {
    if (!root) continue;
    for (const dir of skillDirs(root)) {
      const file = join(dir, 'SKILL.md');
      if (!existsSync(file) || !statSync(file).isFile()) continue;
      take(() => readSkill(file, dir, 'operator', source), file);
    }
  }
  if (locations.pluginsDir) {
    for (const entry of pluginSkillFiles(locations.pluginsDir, errors)) {
      take(() => {
        const skill = readSkill(entry.file, entry.dir, 'guest', 'plugin', entry.plugin);
        if (skill.name !== entry.name) throw new Error(`the manifest declares ${entry.name} but SKILL.md is named ${skill.name}`);
        return skill;
      }, `plugin ${entry.plugin}: skill ${entry.name}`);
    }
  }
  // By code units, not localeCompare: its first call loads ICU's collation data (~5 ms of every daemon start).
  return { skills: [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)), errors };
}
