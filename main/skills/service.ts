/**
 * The skill registry (reference §2.4): its own snapshot, never capabilities — the registry keeps no
 * `:skill` entries (stale ones are cleared on every reload). The snapshot changes only on reload.
 * The composition root puts this in `context.services.skills`; the prompt's catalog reads `catalog`.
 */
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CapabilityRegistry, ExecutionContext, Trust } from '../core/capabilities/index.js';
import { FermixError } from '../core/errors.js';
import { SKILL_NAME_PATTERN } from '../tools/skill-name.js';
import { loadSkills, type LoadedSkill, type SkillLocations } from './loader.js';
import { MAX_BODY_BYTES } from './skill-file.js';
import { createSkillRunner, type SkillRunnerDeps } from './runner.js';

export interface SkillServiceOptions extends Omit<SkillRunnerDeps, 'find' | 'journal'> {
  locations: SkillLocations;
  registry: CapabilityRegistry;
  /** $FERMIX_HOME/journals: one JSON line per skill_run. */
  journalsDir: string;
  onError?: (message: string, fields: Record<string, unknown>) => void;
}

export interface ReloadReport {
  count: number;
  names: string[];
  added: string[];
  removed: string[];
  changed: string[];
  errors: string[];
}

function unknownSkill(name: string): FermixError {
  return new FermixError({ code: 'unknown_skill', message: `No installed skill is named ${name}.`, hint: 'List skills with skill_list (or `fermix skills list`); after adding one, run skill_reload.', data: { name } });
}

export function createSkillService(options: SkillServiceOptions) {
  let skills = new Map<string, LoadedSkill>();
  let lastErrors: string[] = [];

  const journal = (entry: Record<string, unknown>) => {
    try {
      const dir = join(options.journalsDir, 'skill-runs');
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      appendFileSync(join(dir, `${new Date().toISOString().slice(0, 10)}.jsonl`), `${JSON.stringify(entry)}\n`, { mode: 0o600 });
    } catch (error) {
      options.onError?.('skill journal write failed', { error: String(error) });
    }
  };

  const find = (name: string): LoadedSkill => {
    if (!SKILL_NAME_PATTERN.test(name)) {
      throw new FermixError({ code: 'invalid_skill_name', message: `${JSON.stringify(name)} is not a skill name.`, hint: 'Skill names are letters, digits, _ or -, at most 64 characters; skill_list shows them.' });
    }
    const skill = skills.get(name);
    if (!skill) throw unknownSkill(name);
    return skill;
  };

  const runner = createSkillRunner({ ...options, find, journal });

  const service = {
    /** Re-scans every location; reports what changed. Never throws for a bad skill (it is an error line). */
    reload(): ReloadReport {
      // The registry keeps no :skill capabilities: a stale one (an older build, a plugin) is removed first.
      options.registry.unregister_kind('skill');
      const reserved = new Set(options.registry.list().map((cap) => cap.name));
      const result = loadSkills(options.locations, reserved);
      const next = new Map(result.skills.map((skill) => [skill.name, skill]));
      const added = [...next.keys()].filter((name) => !skills.has(name));
      const removed = [...skills.keys()].filter((name) => !next.has(name));
      const changed = [...next.keys()].filter((name) => skills.has(name) && skills.get(name)!.digest !== next.get(name)!.digest);
      skills = next;
      lastErrors = result.errors;
      for (const error of result.errors) options.onError?.('skill skipped', { error });
      return { count: next.size, names: [...next.keys()], added, removed, changed, errors: result.errors };
    },
    list(): LoadedSkill[] {
      return [...skills.values()];
    },
    errors: () => lastErrors,
    /** The prompt's compact catalog: guests get none (reference §2.1 "Guests get no skills"). */
    catalog(trust: Trust = 'operator'): { name: string; description: string }[] {
      if (trust !== 'operator') return [];
      return [...skills.values()].map((skill) => ({ name: skill.name, description: skill.description }));
    },
    find,
    view(name: string, file?: string) {
      const skill = find(name);
      const metadata = { name: skill.name, description: skill.description, trust: skill.trust, source: skill.source, plugin: skill.plugin ?? null, allowed_tools: skill.allowed_tools ?? null, policy: skill.policy ?? null, role: skill.role, max_iterations: skill.max_iterations, timeout_seconds: skill.timeout_seconds };
      if (file === undefined) return { ...metadata, body: skill.body, references: references(skill) };
      if (!SKILL_NAME_PATTERN.test(file)) {
        throw new FermixError({ code: 'invalid_skill_name', message: `${JSON.stringify(file)} is not a reference file name.`, hint: 'Pass the name without .md, e.g. {"name": "…", "file": "template"}.' });
      }
      const path = join(skill.dir, 'references', `${file}.md`);
      if (!existsSync(path)) {
        throw new FermixError({ code: 'reference_not_found', message: `Skill ${name} has no reference file ${file}.`, hint: `Its reference files: ${references(skill).join(', ') || 'none'}.`, data: { name, file } });
      }
      if (statSync(path).size > MAX_BODY_BYTES) {
        throw new FermixError({ code: 'skill_body_too_large', message: `Reference ${file} of skill ${name} exceeds ${MAX_BODY_BYTES} bytes.`, hint: 'Split the reference file into smaller ones.' });
      }
      return { ...metadata, file, body: readFileSync(path, 'utf8') };
    },
    /** skill_create: SKILL.md and evals/evals.json under $FERMIX_HOME/skills/<name>/. */
    create(name: string, description: string): { created: boolean; path: string } {
      if (!SKILL_NAME_PATTERN.test(name) || name.startsWith('_')) {
        throw new FermixError({ code: 'invalid_name', message: `${JSON.stringify(name)} is not a valid skill name.`, hint: 'Use letters, digits, _ or -, 1-64 characters, not starting with _.' });
      }
      const dir = join(options.locations.localDir, name);
      if (existsSync(dir) || skills.has(name) || options.registry.find(name)) {
        throw new FermixError({ code: 'already_exists', message: `A skill or capability named ${name} already exists.`, hint: 'Choose another name, or edit the existing SKILL.md and run skill_reload.', data: { name } });
      }
      const oneLine = description.replace(/\s*\n\s*/g, ' ').trim();
      try {
        mkdirSync(join(dir, 'evals'), { recursive: true });
        writeFileSync(join(dir, 'SKILL.md'), `---\nname: ${name}\ndescription: ${JSON.stringify(oneLine)}\nallowed_tools: []\n---\n\n# ${name}\n\nDescribe, step by step, what the agent should do when this skill applies.\nList the tools it needs in allowed_tools above (an empty list means none).\n`);
        const evals = { skill: name, cases: [{ name: `selects_${name}`, prompt: `A request that should use ${name}: ${oneLine}`, expectations: [`The agent uses the ${name} skill.`] }] };
        writeFileSync(join(dir, 'evals', 'evals.json'), `${JSON.stringify(evals, null, 2)}\n`);
      } catch (error) {
        throw new FermixError({ code: 'write_failed', message: `The skill scaffold could not be written: ${(error as Error).message}.`, hint: `Check the permissions of ${options.locations.localDir}; \`fermix doctor\` checks the home.`, cause: error });
      }
      return { created: true, path: dir };
    },
    run: runner.run,
  };
  return service;
}

/** Names (without .md) of the skill's references/*.md files. */
function references(skill: LoadedSkill): string[] {
  const dir = join(skill.dir, 'references');
  try {
    return readdirSync(dir).filter((file) => file.endsWith('.md')).map((file) => file.slice(0, -3)).sort();
  } catch {
    return [];
  }
}

export type SkillService = ReturnType<typeof createSkillService>;

/** `context.services.skills`, or `service_unavailable`. */
export function skillServiceOf(context: ExecutionContext): SkillService {
  const value = (context.services ?? {}).skills as Partial<SkillService> | undefined;
  if (!value || typeof value.find !== 'function' || typeof value.run !== 'function' || typeof value.reload !== 'function') {
    throw new FermixError({ code: 'service_unavailable', message: 'The skill tools need the skill registry, which this daemon did not provide.', hint: 'This is a wiring bug in the daemon (main/daemon/compose.ts); run `fermix doctor` and report it.', data: { service: 'skills' } });
  }
  return value as SkillService;
}
