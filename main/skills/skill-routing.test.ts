// A skill's provider / model / temperature frontmatter applied to its skill_run sub-turn, against two
// scripted providers (OpenAI and Anthropic wire formats of the model server): the sub-turn's request
// reaches the skill's provider with the skill's model and temperature, the caller's turn stays on the
// primary, and a provider that is not configured fails the run with unknown_provider and a hint.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { toolResultsOf, type RecordedRequest } from '../../test/fixtures/model-server/index.js';
import { useAgentTestContext } from '../agent/test-context.js';
import { createHarness, providerConfig, type Harness } from '../agent/test-harness.js';
import { skillRun } from '../tools/skill-run.js';
import { createSkillService, type SkillService } from './service.js';

const ctx = useAgentTestContext();
const BODY = 'ROUTED-SKILL-BODY';
const systemText = (req: RecordedRequest) => JSON.stringify(req.body?.system ?? req.body?.messages?.[0]?.content ?? '');
const inSkill = (req: RecordedRequest) => systemText(req).includes(BODY);

async function start(frontmatter: string): Promise<Harness> {
  const home = mkdtempSync(join(tmpdir(), 'fermix-skill-route-'));
  const local = join(home, 'skills');
  mkdirSync(join(local, 'routed'), { recursive: true });
  writeFileSync(join(local, 'routed', 'SKILL.md'), `---\nname: routed\ndescription: Use for routing tests.\nallowed_tools: []\n${frontmatter}---\n\nAnswer briefly. ${BODY}\n`);
  const late: { skills?: SkillService } = {};
  const h = await createHarness({
    home,
    config: providerConfig([
      { name: 'main', type: 'openai', baseUrl: ctx.server.baseUrlOpenAI, primary: true, keyEnv: 'K' },
      { name: 'claude', type: 'anthropic', baseUrl: ctx.server.baseUrlOpenAI, model: 'claude-configured', keyEnv: 'K' },
    ], '[fermix_core.tools.tool_search]\nenabled = false\n'),
    capabilities: () => [skillRun],
    rules: [{ permission: '*', action: 'allow', source: 'config' }],
    secrets: { keyring: () => null, env: () => 'k' },
    overrides: { services: () => ({ skills: late.skills }), skillCatalog: (trust) => late.skills?.catalog(trust) ?? [] },
  });
  late.skills = createSkillService({ locations: { localDir: local }, registry: h.registry, journalsDir: join(home, 'journals'), role: () => null, subTurn: (request) => h.agent.runSubTurn(request) });
  expect(late.skills.reload().names).toEqual(['routed']);
  ctx.harness = h;
  return h;
}

/** The caller runs the skill once and reports the tool result it got. */
function script() {
  ctx.server.setScript((req) => {
    if (inSkill(req)) return { text: `skill answered on ${req.vendor}` };
    const results = toolResultsOf(req);
    return results.length === 0 ? { toolCalls: [{ name: 'skill_run', arguments: { name: 'routed', task: 'say hi' } }] } : { text: `caller saw: ${results[0].content}` };
  });
}

describe('skill model routing', () => {
  it('runs the sub-turn on the skill\'s provider with its model and temperature; the caller stays on the primary', async () => {
    const h = await start('provider: anthropic\nmodel: claude-sonnet-4-5-skill\ntemperature: 0.3\n');
    script();
    const before = ctx.server.requests.length;
    const result = await h.agent.send({ message: 'use the skill' }).done;
    expect(result.text).toContain('skill answered on anthropic');
    const requests = ctx.server.requests.slice(before).filter((req) => req.vendor !== 'other');
    const skillRequests = requests.filter(inSkill);
    expect(skillRequests.map((req) => [req.vendor, req.body.model, req.body.temperature])).toEqual([['anthropic', 'claude-sonnet-4-5-skill', 0.3]]);
    const callerRequests = requests.filter((req) => !inSkill(req));
    expect(callerRequests.map((req) => [req.vendor, req.body.model])).toEqual([['openai', 'fermix-test-model'], ['openai', 'fermix-test-model']]);
    expect(callerRequests.every((req) => req.body.temperature === undefined)).toBe(true);
  });

  it('a model alone runs on the primary provider with that model', async () => {
    const h = await start('model: other-openai-model\n');
    script();
    const before = ctx.server.requests.length;
    await h.agent.send({ message: 'use the skill' }).done;
    const skillRequests = ctx.server.requests.slice(before).filter(inSkill);
    expect(skillRequests.map((req) => [req.vendor, req.body.model])).toEqual([['openai', 'other-openai-model']]);
  });

  it('a provider that is not configured fails the run with unknown_provider and a hint, before any request', async () => {
    const h = await start('provider: groq\n');
    script();
    const before = ctx.server.requests.length;
    const result = await h.agent.send({ message: 'use the skill' }).done;
    expect(ctx.server.requests.slice(before).filter(inSkill)).toEqual([]);
    expect(result.text).toContain('unknown_provider');
    expect(result.text).toContain('names the provider "groq"');
    expect(result.text).toContain('fermix providers list');
  });
});
