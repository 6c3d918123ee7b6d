// The request builder keeps one tool list per caller shape for the current registry version: a turn (its
// role) and auto-compaction used to share a single slot and rebuilt every tool's SDK schema three times a
// turn, garbage that held the daemon's RSS up (docs/decisions/0027, "300 turns").
import { beforeAll, describe, expect, it } from 'vitest';
import { createRegistry } from '../core/capabilities/index.js';
import type { Role } from '../core/capabilities/roles.js';
import { loadAiSdk } from './ai-runtime.js';
import { createRequestBuilder } from './request-builder.js';
import { testTool } from './test-harness.js';

function builder() {
  const registry = createRegistry();
  registry.register(testTool('read_notes'));
  registry.register(testTool('remember_note', { group: 'memory', metadata: { category: 'memory' } }));
  const requests = createRequestBuilder({
    registry,
    deferralEnabled: () => false,
    pluginStatus: () => [],
    skillCatalog: () => [],
    services: () => ({}),
    now: () => new Date('2026-12-01T12:00:00Z'),
  });
  return { registry, requests };
}

const filesOnly: Role = { name: 'files-only', tools: ['fs'] };

describe('request builder tool lists', () => {
  beforeAll(() => loadAiSdk());

  it('keeps the list of each caller shape while another shape asks in between', () => {
    const { requests } = builder();
    const forRole = requests.prepare('c1', 'operator', 'chat', filesOnly).tools;
    const roleless = requests.prepare('c1', 'operator', 'chat', null).tools;
    expect(Object.keys(forRole)).toEqual(['read_notes']);
    expect(Object.keys(roleless).sort()).toEqual(['read_notes', 'remember_note']);
    expect(requests.prepare('c1', 'operator', 'chat', filesOnly).tools).toBe(forRole);
    expect(requests.prepare('c2', 'operator', 'chat', null).tools).toBe(roleless);
  });

  it('builds the lists again when the registry changes', () => {
    const { registry, requests } = builder();
    const before = requests.prepare('c1', 'operator', 'chat', null).tools;
    registry.register(testTool('write_notes'));
    const after = requests.prepare('c1', 'operator', 'chat', null).tools;
    expect(after).not.toBe(before);
    expect(Object.keys(after)).toContain('write_notes');
  });

  it('names the weekday of the day it builds the prompt for', () => {
    expect(builder().requests.prepare('c1', 'operator', 'chat', null).system).toContain('Today is Tuesday, 2026-12-01 (UTC).');
  });
});
