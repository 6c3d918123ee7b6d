// skill_run through real turns against the scripted model server: the sub-turn runs the skill's body
// as its system prompt, is offered only skill ∩ caller tools (role sub drops read_write), a call outside
// that set is refused at the invoke boundary, the result returns to the caller, and a journal line is
// written; unknown skills and the recursion cap fail with their tags.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useAgentTestContext } from '../main/agent/test-context.js';
import { messagesOf, toolNamesOf, toolResultsOf, type RecordedRequest } from './fixtures/model-server/index.js';
import { createHarness, providerConfig, testTool, type Harness } from '../main/agent/test-harness.js';
import { createSkillService, type SkillService } from '../main/skills/service.js';
import { skillList } from '../main/tools/skill-list.js';
import { skillRun } from '../main/tools/skill-run.js';
import { skillView } from '../main/tools/skill-view.js';

const ctx = useAgentTestContext();

const writes: unknown[] = [];
const tools = () => [
  skillRun, skillView, skillList,
  testTool('read_note', { run: async () => ({ text: 'note: buy milk' }) }),
  testTool('write_note', { policy_class: 'read_write', run: async (args) => (writes.push(args), { text: 'written' }) }),
];
const systemOf = (req: RecordedRequest) => String(messagesOf(req)[0]?.content ?? '');
const completions = () => ctx.server.requests.filter((r: RecordedRequest) => r.vendor !== 'other');

async function start(): Promise<{ h: Harness; skills: SkillService; home: string }> {
  const home = mkdtempSync(join(tmpdir(), 'fermix-skill-run-'));
  const local = join(home, 'skills');
  mkdirSync(join(local, 'notes'), { recursive: true });
  writeFileSync(join(local, 'notes', 'SKILL.md'), '---\nname: notes\ndescription: Use for notes.\nallowed_tools: [read_note, write_note, skill_run]\n---\n\nRead the note and report it. NOTES-SKILL-BODY\n');
  const late: { skills?: SkillService } = {};
  const h = await createHarness({
    home,
    config: providerConfig([{ name: 'main', type: 'openai', baseUrl: ctx.server.baseUrlOpenAI, primary: true, keyEnv: 'K' }], '[fermix_core.tools.tool_search]\nenabled = false\n'),
    capabilities: tools,
    rules: [{ permission: '*', action: 'allow', source: 'config' }],
    secrets: { keyring: () => null, env: () => 'k' },
    overrides: { services: () => ({ skills: late.skills }), skillCatalog: (trust) => late.skills?.catalog(trust) ?? [] },
  });
  const skills = createSkillService({ locations: { localDir: local }, registry: h.registry, journalsDir: join(home, 'journals'), role: () => null, subTurn: (request) => h.agent.runSubTurn(request) });
  late.skills = skills;
  expect(skills.reload().names).toEqual(['notes']);
  ctx.harness = h;
  return { h, skills, home };
}

describe('skill_run', () => {
  it('runs a supervised sub-turn with skill ∩ caller tools and returns its answer', async () => {
    const { h, home } = await start();
    writes.length = 0;
    ctx.server.setScript((req) => {
      const inSkill = systemOf(req).includes('NOTES-SKILL-BODY');
      const results = toolResultsOf(req);
      if (inSkill) {
        if (results.length === 0) return { toolCalls: [{ name: 'read_note', arguments: {} }, { name: 'write_note', arguments: { text: 'x' } }] };
        return { text: `skill saw: ${results.map((r) => r.content).join(' | ')}` };
      }
      if (results.length === 0) return { toolCalls: [{ name: 'skill_run', arguments: { name: 'notes', task: 'read my note' } }] };
      return { text: `main got: ${results[0].content}` };
    });
    const before = completions().length;
    const result = await h.agent.send({ message: 'use the notes skill' }).done;
    expect(result.status).toBe('completed');
    const main = completions()[before];
    expect(systemOf(main)).toMatch(/- notes: Use for notes\./);
    const sub = completions().slice(before).find((req) => systemOf(req).includes('NOTES-SKILL-BODY'))!;
    // role sub (the default) drops read_write: write_note is not offered, and the boundary refuses it.
    expect(toolNamesOf(sub).sort()).toEqual(['read_note', 'skill_run']);
    expect(writes).toEqual([]);
    expect(result.text).toMatch(/main got: Skill notes:\nskill saw: note: buy milk \| .*policy_denied/s);
    expect(h.audit.find((record) => record.capability === 'write_note')).toMatchObject({ decision: 'deny', origin: 'subagent' });
    const [day] = readdirSync(join(home, 'journals', 'skill-runs'));
    const entry = JSON.parse(readFileSync(join(home, 'journals', 'skill-runs', day), 'utf8').trim());
    expect(entry).toMatchObject({ skill: 'notes', trust: 'operator', depth: 1, status: 'completed', tools: ['read_note', 'skill_run'] });
    // The throwaway sub-conversation is gone: its words are not in history.
    expect(h.db.get<{ n: number }>("SELECT COUNT(*) AS n FROM conversations WHERE id LIKE 'skill-run-%'")!.n).toBe(0);
  });

  it('fails with unknown_skill and max_depth', async () => {
    const { skills } = await start();
    const call = (args: Record<string, unknown>, services: Record<string, unknown>) =>
      skillRun.executor!(args, { trust: 'operator', origin: 'chat', signal: new AbortController().signal, services: { skills, ...services } });
    await expect(call({ name: 'nothing', task: 't' }, {})).rejects.toMatchObject({ code: 'unknown_skill' });
    await expect(call({ name: 'notes', task: 't' }, { skillScope: { depth: 4, allowed: ['skill_run'], trust: 'operator' } })).rejects.toMatchObject({ code: 'max_depth' });
    const view = await skillView.executor!({ name: 'notes' }, { trust: 'operator', origin: 'chat', signal: new AbortController().signal, services: { skills } });
    expect(view.text).toMatch(/NOTES-SKILL-BODY/);
  });
});
