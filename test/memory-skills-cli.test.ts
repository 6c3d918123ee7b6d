// `fermix memory` and `fermix skills` from the real CLI against a real `fermix daemon` child process:
// memories written through memory_store (the invoke boundary) are listed, searched and forgotten by id
// and by key; skills (bundled and local) are listed, viewed and reloaded after a SKILL.md changes on disk.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFermixAsync, startDaemonProcess, stopDaemonProcess, tempHome, type DaemonProcess } from './support/daemon-process.js';

let home: string;
let daemon: DaemonProcess;

function skillFile(name: string, description: string, body: string): string {
  return `---\nname: ${name}\ndescription: ${JSON.stringify(description)}\nallowed_tools: [memory_recall]\n---\n\n${body}\n`;
}

async function json(args: string[]): Promise<any> {
  const result = await runFermixAsync(home, [...args, '--json']);
  expect(result.code, `fermix ${args.join(' ')}: ${result.stderr}`).toBe(0);
  const parsed = JSON.parse(result.stdout);
  expect(parsed).toMatchObject({ schema_version: 1, ok: true });
  return parsed.result;
}

async function remember(key: string, value: string, category: string): Promise<void> {
  const result = await runFermixAsync(home, ['capabilities', 'call', 'memory_store', '--json', '--args', JSON.stringify({ key, value, category })]);
  expect(result.code, result.stdout + result.stderr).toBe(0);
}

beforeAll(async () => {
  home = tempHome('fermix-memory-skills-');
  // memory_store is read_write: an unattended CLI call needs an allow rule (the owner's explicit choice).
  writeFileSync(join(home, 'config.toml'), '[fermix_core]\nsecret_store = "file"\n\n[[permissions.rules]]\npermission = "memory_store"\naction = "allow"\n');
  mkdirSync(join(home, 'skills', 'trip-notes', 'references'), { recursive: true });
  writeFileSync(join(home, 'skills', 'trip-notes', 'SKILL.md'), skillFile('trip-notes', 'Use for travel notes.', 'Collect the travel notes. TRIP-BODY-V1'));
  writeFileSync(join(home, 'skills', 'trip-notes', 'references', 'packing.md'), 'Passport, charger. PACKING-REF\n');
  daemon = await startDaemonProcess(home);
}, 30_000);

afterAll(async () => {
  await stopDaemonProcess(daemon);
  rmSync(home, { recursive: true, force: true });
});

describe('fermix memory', () => {
  it('lists, searches and forgets memories stored through memory_store', async () => {
    expect((await json(['memory', 'list'])).memories).toEqual([]);
    await remember('timezone', 'Europe/Lisbon', 'identity');
    await remember('coffee', 'Flat white, no sugar', 'preference');

    const listed = (await json(['memory', 'list'])).memories as { id: number; key: string; value: string; category: string; scope: string }[];
    expect(listed.map((memory) => memory.key).sort()).toEqual(['coffee', 'timezone']);
    expect(listed.find((memory) => memory.key === 'timezone')).toMatchObject({ value: 'Europe/Lisbon', category: 'identity', scope: 'owner' });

    const human = await runFermixAsync(home, ['memory', 'list']);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/timezone\s+identity\s+owner\s+Europe\/Lisbon/);

    const found = await json(['memory', 'search', 'flat', 'white']);
    expect(found.memories.map((memory: { key: string }) => memory.key)).toEqual(['coffee']);
    const none = await runFermixAsync(home, ['memory', 'search', 'zebra']);
    expect(none.code).toBe(0);
    expect(none.stdout).toContain('Nothing matched "zebra"');

    const coffee = listed.find((memory) => memory.key === 'coffee')!;
    const byId = await json(['memory', 'forget', String(coffee.id)]);
    expect(byId.removed.map((memory: { id: number }) => memory.id)).toEqual([coffee.id]);
    const byKey = await runFermixAsync(home, ['memory', 'forget', 'timezone']);
    expect(byKey.code).toBe(0);
    expect(byKey.stdout).toContain('Forgot memory');
    expect((await json(['memory', 'list'])).memories).toEqual([]);

    const again = await runFermixAsync(home, ['memory', 'forget', 'timezone', '--json']);
    expect(again.code).toBe(1);
    expect(JSON.parse(again.stdout)).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(JSON.parse(again.stdout).error.hint).toContain('memory list');
  });

  it('refuses usage errors with exit 2 and prints --help', async () => {
    expect((await runFermixAsync(home, ['memory', 'search'])).code).toBe(2);
    expect((await runFermixAsync(home, ['memory', 'erase', 'x'])).code).toBe(2);
    const help = await runFermixAsync(home, ['memory', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('memory forget ID|KEY');
  });
});

describe('fermix skills', () => {
  it('lists bundled and local skills, views one and its reference, and reloads a changed SKILL.md', async () => {
    const listed = await json(['skills', 'list']);
    const names = listed.skills.map((skill: { name: string }) => skill.name);
    expect(names).toEqual(expect.arrayContaining(['trip-notes', 'self-knowledge', 'memory-review']));
    expect(listed.skills.find((skill: { name: string }) => skill.name === 'trip-notes')).toMatchObject({ source: 'local', trust: 'operator', allowed_tools: ['memory_recall'] });

    const view = await runFermixAsync(home, ['skills', 'view', 'trip-notes']);
    expect(view.code).toBe(0);
    expect(view.stdout).toContain('TRIP-BODY-V1');
    expect(view.stdout).toContain('references: packing');
    expect((await json(['skills', 'view', 'trip-notes', '--file', 'packing'])).body).toContain('PACKING-REF');

    writeFileSync(join(home, 'skills', 'trip-notes', 'SKILL.md'), skillFile('trip-notes', 'Use for travel notes.', 'TRIP-BODY-V2'));
    mkdirSync(join(home, 'skills', 'broken'));
    writeFileSync(join(home, 'skills', 'broken', 'SKILL.md'), '---\nname: broken\n---\n\nno description\n');
    const report = await json(['skills', 'reload']);
    expect(report.changed).toEqual(['trip-notes']);
    expect(report.errors.join('\n')).toContain('description');
    expect((await json(['skills', 'view', 'trip-notes'])).body).toContain('TRIP-BODY-V2');

    const unknown = await runFermixAsync(home, ['skills', 'view', 'nope', '--json']);
    expect(unknown.code).toBe(1);
    expect(JSON.parse(unknown.stdout).error.code).toBe('unknown_skill');
    // At the CLI the hint names CLI verbs, not the agent's skill_list / skill_reload tools.
    const plain = await runFermixAsync(home, ['skills', 'view', 'nope']);
    expect(plain.stderr).toMatch(/skills list`; after adding one, run `(npx |node \S+ )?fermix skills reload`/);
    expect(plain.stderr).not.toContain('skill_reload');
  });

  it('exits 3 when no daemon is running', async () => {
    const empty = tempHome('fermix-no-daemon-');
    try {
      const result = await runFermixAsync(empty, ['skills', 'list']);
      expect(result.code).toBe(3);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

