// Skills on real directories: SKILL.md parsing (three-state allowed_tools, defaults, refusals), trust
// from location (bundled/local operator, plugin guest), skipped-and-logged bad skills, reload's report,
// skill_create's scaffold and skill_view's reference files; the bundled skills all load.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRegistry } from '../core/capabilities/index.js';
import { ALWAYS_ON_BUILTINS } from '../tools/index.js';
import { parseSkill } from './skill-file.js';
import { loadSkills } from './loader.js';
import { createSkillService } from './service.js';

const skillText = (name: string, extra = '', body = 'Do the thing.') => `---\nname: ${name}\ndescription: Use for ${name}.\n${extra}---\n\n${body}\n`;

function write(dir: string, name: string, text: string) {
  mkdirSync(join(dir, name), { recursive: true });
  writeFileSync(join(dir, name, 'SKILL.md'), text);
}

function service(localDir: string, extra: { pluginsDir?: string; bundledDir?: string } = {}) {
  const registry = createRegistry();
  for (const cap of ALWAYS_ON_BUILTINS) registry.register(cap);
  return createSkillService({ locations: { localDir, ...extra }, registry, journalsDir: join(localDir, '..', 'journals'), role: () => null, subTurn: () => Promise.reject(new Error('not in this test')) });
}

describe('SKILL.md', () => {
  it('reads the three states of allowed_tools and the defaults', () => {
    expect(parseSkill(skillText('a'), 'a').allowed_tools).toBeUndefined();
    expect(parseSkill(skillText('b', 'allowed_tools: []\n'), 'b').allowed_tools).toEqual([]);
    const c = parseSkill(skillText('c', 'allowed_tools:\n  - file_read\n  - "git_read"\npolicy: [read_only]\nrole: main\n'), 'c');
    expect(c).toMatchObject({ allowed_tools: ['file_read', 'git_read'], policy: ['read_only'], role: 'main', max_iterations: 25, timeout_seconds: 300 });
    expect(parseSkill(skillText('d'), 'd').role).toBe('sub');
  });

  it('refuses a bad name, an unknown policy class, an unknown key and a missing body', () => {
    expect(() => parseSkill(skillText('bad name'), 'f')).toThrow(/name must match/);
    expect(() => parseSkill(skillText('e', 'policy: [root]\n'), 'f')).toThrow(/unknown class root/);
    expect(() => parseSkill(skillText('e', 'trust: operator\n'), 'f')).toThrow(/unknown frontmatter key trust/);
    expect(() => parseSkill(skillText('e', '', ''), 'f')).toThrow(/body/);
    expect(() => parseSkill('no frontmatter', 'f')).toThrow(/frontmatter/);
  });

  it('loads every bundled skill', () => {
    const result = loadSkills({ localDir: '/nonexistent', bundledDir: join(process.cwd(), 'resources', 'skills') }, new Set());
    expect(result.errors).toEqual([]);
    expect(result.skills.map((skill) => skill.name)).toEqual(['code-review', 'memory-review', 'self-knowledge']);
    expect(result.skills.every((skill) => skill.trust === 'operator' && skill.source === 'bundled')).toBe(true);
  });
});

describe('discovery and reload', () => {
  it('takes trust from location, skips collisions and malformed files, and keeps plugin paths inside the plugin', () => {
    const home = mkdtempSync(join(tmpdir(), 'fermix-skills-'));
    const local = join(home, 'skills');
    write(local, 'notes', skillText('notes'));
    write(local, 'broken', '---\nname: broken\n');
    write(local, 'shell', skillText('shell'));
    const plugin = join(home, 'plugins', 'installed', 'acme');
    mkdirSync(join(plugin, '1.0.0'), { recursive: true });
    writeFileSync(join(plugin, 'current'), '1.0.0');
    writeFileSync(join(plugin, '1.0.0', 'plugin.json'), JSON.stringify({ name: 'acme', skills: [{ name: 'acme_helper', path: 'skills/acme_helper' }, { name: 'escape', path: '../../../../skills/notes' }, { name: 'acme', path: 'skills/acme' }] }));
    write(join(plugin, '1.0.0', 'skills'), 'acme_helper', skillText('acme_helper', 'allowed_tools: [memory_recall]\n'));
    const skills = service(local, { pluginsDir: join(home, 'plugins') });
    const report = skills.reload();
    expect(report.names).toEqual(['acme_helper', 'notes']);
    expect(skills.find('acme_helper')).toMatchObject({ trust: 'guest', source: 'plugin', plugin: 'acme' });
    expect(skills.find('notes').trust).toBe('operator');
    expect(report.errors.join('\n')).toMatch(/broken.*frontmatter block is not closed/);
    expect(report.errors.join('\n')).toMatch(/shell collides with a capability/);
    expect(report.errors.join('\n')).toMatch(/escape path .* leaves the plugin directory/);
    expect(report.errors.join('\n')).toMatch(/acme has the plugin's own name/);

    write(local, 'notes', skillText('notes', '', 'Changed body.'));
    write(local, 'todo', skillText('todo'));
    writeFileSync(join(plugin, '1.0.0', 'plugin.json'), JSON.stringify({ name: 'acme', skills: [] }));
    expect(skills.reload()).toMatchObject({ added: ['todo'], removed: ['acme_helper'], changed: ['notes'] });
    expect(skills.catalog('guest')).toEqual([]);
    expect(skills.catalog('operator').map((entry) => entry.name)).toEqual(['notes', 'todo']);
  });

  it('clears stale :skill capabilities from the registry on reload', () => {
    const local = join(mkdtempSync(join(tmpdir(), 'fermix-skills-')), 'skills');
    const registry = createRegistry();
    registry.register({ ...ALWAYS_ON_BUILTINS[0], name: 'old_skill', kind: 'skill' });
    const skills = createSkillService({ locations: { localDir: local }, registry, journalsDir: local, role: () => null, subTurn: () => Promise.reject(new Error('unused')) });
    skills.reload();
    expect(registry.list({ kind: 'skill' })).toEqual([]);
  });

  it('scaffolds with skill_create (SKILL.md + evals) and views bodies and reference files', () => {
    const local = join(mkdtempSync(join(tmpdir(), 'fermix-skills-')), 'skills');
    const skills = service(local);
    const created = skills.create('weekly_report', 'Use to draft the Friday report.');
    expect(JSON.parse(readFileSync(join(created.path, 'evals', 'evals.json'), 'utf8'))).toMatchObject({ skill: 'weekly_report', cases: [{ name: 'selects_weekly_report' }] });
    expect(() => skills.create('weekly_report', 'again')).toThrow(expect.objectContaining({ code: 'already_exists' }));
    expect(() => skills.create('_hidden', 'x')).toThrow(expect.objectContaining({ code: 'invalid_name' }));
    expect(() => skills.create('file_read', 'x')).toThrow(expect.objectContaining({ code: 'already_exists' }));
    expect(() => skills.find('weekly_report')).toThrow(expect.objectContaining({ code: 'unknown_skill' }));
    expect(skills.reload().added).toEqual(['weekly_report']);
    expect(skills.find('weekly_report').allowed_tools).toEqual([]);
    mkdirSync(join(created.path, 'references'));
    writeFileSync(join(created.path, 'references', 'template.md'), '# Template\nWeek N');
    expect(skills.view('weekly_report')).toMatchObject({ references: ['template'] });
    expect(skills.view('weekly_report', 'template').body).toMatch(/Week N/);
    expect(() => skills.view('weekly_report', 'missing')).toThrow(expect.objectContaining({ code: 'reference_not_found' }));
    expect(() => skills.view('no such')).toThrow(expect.objectContaining({ code: 'invalid_skill_name' }));
  });
});
