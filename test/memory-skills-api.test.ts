// The window's memory.* and skills.* methods over HTTP against a real `fermix daemon`: skills.create writes
// the same scaffold as skill_create (and is listed at once), with skill_create's refusals; memory.search
// honours scope and source and reports confidence and who wrote each memory; memory.forget removes it.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall, startDaemonProcess, stopDaemonProcess, tempHome, type DaemonProcess } from './support/daemon-process.js';

let home: string;
let daemon: DaemonProcess;

async function ok(method: string, input: unknown = {}): Promise<any> {
  const response = await apiCall(daemon, method, input);
  expect(response.body.error, `${method}: ${JSON.stringify(response.body.error)}`).toBeUndefined();
  return response.body.result;
}

async function remember(args: Record<string, unknown>, conversationId = 'trip-chat'): Promise<void> {
  await ok('capabilities.call', { name: 'memory_store', args, origin: 'chat', conversation_id: conversationId });
}

beforeAll(async () => {
  home = tempHome('fermix-memory-skills-api-');
  // memory_store is read_write: an unattended call needs an allow rule (the owner's explicit choice).
  writeFileSync(join(home, 'config.toml'), '[fermix_core]\nsecret_store = "file"\n\n[[permissions.rules]]\npermission = "memory_store"\naction = "allow"\n');
  daemon = await startDaemonProcess(home);
}, 30_000);

afterAll(async () => {
  await stopDaemonProcess(daemon);
  rmSync(home, { recursive: true, force: true });
});

describe('skills.create', () => {
  it('writes SKILL.md and evals/evals.json, reloads, and the new skill is listed and viewable at operator trust', async () => {
    const result = await ok('skills.create', { name: 'weekly-report', description: 'Use to draft the Friday status report.' });
    expect(result).toMatchObject({ created: true, path: join(home, 'skills', 'weekly-report'), reload: { added: ['weekly-report'], errors: [] } });
    expect(readFileSync(join(home, 'skills', 'weekly-report', 'SKILL.md'), 'utf8')).toContain('description: "Use to draft the Friday status report."');
    expect(JSON.parse(readFileSync(join(home, 'skills', 'weekly-report', 'evals', 'evals.json'), 'utf8'))).toMatchObject({ skill: 'weekly-report' });
    const listed = (await ok('skills.list')).skills.find((skill: { name: string }) => skill.name === 'weekly-report');
    expect(listed).toMatchObject({ trust: 'operator', source: 'local', allowed_tools: [] });
    expect((await ok('skills.view', { name: 'weekly-report' })).body).toContain('# weekly-report');
  });

  it("refuses what skill_create refuses: a bad name, a leading _, a taken name (a bundled skill or a capability)", async () => {
    for (const [name, code] of [['no spaces', 'invalid_name'], ['_hidden', 'invalid_name'], ['weekly-report', 'already_exists'], ['memory-review', 'already_exists'], ['web_fetch', 'already_exists']] as const) {
      const response = await apiCall(daemon, 'skills.create', { name, description: 'x' });
      expect(response.body.error?.code, name).toBe(code);
      expect(response.body.error?.hint).toBeTruthy();
      // The window lists skills and has a Reload button: its hint names those, not the agent's skill_reload.
      if (code === 'already_exists') expect(response.body.error?.hint).toMatch(/^Choose another name, or select the existing skill in the list.*press Reload\.$/);
    }
    expect(existsSync(join(home, 'skills', '_hidden'))).toBe(false);
    expect((await apiCall(daemon, 'skills.create', { name: 'blank', description: '   ' })).body.error?.code).toBe('invalid_input');
  });
});

describe('memory.search and memory.forget', () => {
  // A guest cannot write memories through capabilities.call (memory_store is read_write, guests get read_only),
  // so written_by is checked for the owner's rows; the guest rules themselves are main/memory/memory.test.ts's.
  it('searches by scope and source, shows confidence and who wrote it, and forgets by id', async () => {
    await remember({ key: 'coffee', value: 'Flat white, no sugar', category: 'preference', confidence: 0.9 });
    await remember({ key: 'hotel', value: 'Hotel Avenida near the white tower', category: 'context' });
    await remember({ key: 'wine', value: 'Likes white wine with fish', category: 'context' }, 'dinner-chat');

    const all = (await ok('memory.search', { query: 'white' })).memories as { id: number; key: string; scope: string; confidence: number; written_by: string }[];
    expect(all.map((memory) => memory.key).sort()).toEqual(['coffee', 'hotel', 'wine']);
    expect(all.find((memory) => memory.key === 'coffee')).toMatchObject({ scope: 'owner', confidence: 0.9, written_by: 'operator' });
    expect(all.find((memory) => memory.key === 'hotel')).toMatchObject({ scope: 'conversation:trip-chat', confidence: 1 });

    // owner: the owner's and the agent's memories only; current: this conversation's plus those.
    expect((await ok('memory.search', { query: 'white', scope: 'owner' })).memories.map((memory: { key: string }) => memory.key)).toEqual(['coffee']);
    expect((await ok('memory.search', { query: 'white', scope: 'current', conversation_id: 'trip-chat' })).memories.map((memory: { key: string }) => memory.key).sort()).toEqual(['coffee', 'hotel']);
    expect((await apiCall(daemon, 'memory.search', { query: 'white', scope: 'current' })).body.error?.code).toBe('missing_context');
    expect(await ok('memory.search', { query: 'white', source: 'history' })).toEqual({ memories: [], history: [] });

    const wine = all.find((memory) => memory.key === 'wine')!;
    expect((await ok('memory.forget', { target: String(wine.id) })).removed.map((memory: { id: number }) => memory.id)).toEqual([wine.id]);
    expect((await ok('memory.list')).memories.map((memory: { key: string }) => memory.key).sort()).toEqual(['coffee', 'hotel']);
    expect((await apiCall(daemon, 'memory.forget', { target: String(wine.id) })).body.error?.code).toBe('not_found');
  });
});
