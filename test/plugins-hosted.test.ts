/**
 * The hosted-MCP rail in a real daemon (in process, so the test composition root can point
 * mcp.eden.so at the local HTTPS SDK fake through `pluginNet` — no config key reaches it): Eden from
 * the signed catalog needs its token, then a workspace chosen through the setup screen's API; it turns
 * ready with the retrieval tools as eden_* capabilities called through the invoke boundary (the
 * workspace injected, a model-supplied one refused before any request, out_of_credits passed through,
 * non-text refused, pacing with remote_busy past the 16-deep queue); the capture profile only with a
 * write-scoped token; a schema drift is zero tools and upstream_contract_mismatch in `plugins list
 * --json` and doctor; a revoked token is reauthorization_required.
 */
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDaemon, type RunningDaemon } from '../main/daemon/compose.js';
import { createTestPolicy } from '../main/net/test-policy.js';
import { EDEN_READ_TOKEN, EDEN_WRITE_TOKEN, startEdenFake } from './fixtures/hosted-mcp/eden-fake.js';
import { EDEN_CAPTURE_TOOLS, EDEN_RETRIEVAL_TOOLS } from './fixtures/hosted-mcp/eden-tools.js';
import type { HostedFake } from './fixtures/hosted-mcp/server.js';
import { runFermixAsync, tempHome, waitFor } from './support/daemon-process.js';

const CALL = { transport: 'socket' as const, trust: 'operator' as const };
const RETRIEVAL = EDEN_RETRIEVAL_TOOLS.map((tool) => tool.name);
let fake: HostedFake;
let home: string;
let daemon: RunningDaemon;

type Answer = { ok: true; result: any } | { ok: false; error: { code: string; message: string; hint: string } };
const dispatch = (method: string, input: unknown = {}) => daemon.dispatcher.dispatch(method, input, CALL) as Promise<Answer>;
async function must(method: string, input: unknown = {}): Promise<any> {
  const answer = await dispatch(method, input);
  if (!answer.ok) throw new Error(`${method}: ${answer.error.code}: ${answer.error.message}`);
  return answer.result;
}
const call = (name: string, args: Record<string, unknown>) => dispatch('capabilities.call', { name, args });
const eden = async () => (await must('plugins.status', { name: 'eden' })).plugins[0];
const liveIs = (live: string) => waitFor(async () => (await eden()).live === live, 20_000, `eden live ${live}`);

const runFermix = (args: string[]) => runFermixAsync(home, args);

beforeAll(async () => {
  fake = await startEdenFake();
  home = tempHome('fermix-plugins-hosted-');
  writeFileSync(join(home, 'config.toml'), '[fermix_core]\nsecret_store = "file"\n\n[fermix_core.plugins]\ntrust_dev_key = true\n');
  daemon = await startDaemon({
    home, port: 0,
    pluginNet: { policy: createTestPolicy(), ca: fake.ca, lookup: async () => [{ address: '127.0.0.1', family: 4 }], testPortOverrides: { 'mcp.eden.so': fake.server.port } },
  });
});
afterAll(async () => {
  await daemon?.stop('test done');
  await fake?.close();
});

describe('hosted MCP rail in the daemon: Eden', () => {
  it('needs a token, then a workspace chosen through the setup API, then turns ready with the retrieval tools', async () => {
    expect((await must('plugins.enable', { name: 'eden' })).status).toBe('needs_secret');
    const rejected = await dispatch('plugins.set_secret', { name: 'eden', value: 'eden_pat_notavalidtokenatall' });
    expect(rejected.ok === false && rejected.error.code).toBe('api_key_rejected');
    const stored = await must('plugins.set_secret', { name: 'eden', value: EDEN_READ_TOKEN });
    expect(stored).toMatchObject({ stored: true, checked: true, status: 'needs_workspace' });
    expect(await eden()).toMatchObject({ status: 'needs_workspace', tools: [], remote: true });
    expect(daemon.capabilities.registry.list().filter((cap) => cap.name.startsWith('eden_'))).toEqual([]);

    const listed = await must('plugins.workspaces', { name: 'eden' });
    expect(listed).toMatchObject({ workspaces: [{ id: 'ws_research', label: 'Research' }, { id: 'ws_home', label: 'Home' }], credential_scope: 'read', chosen: null });
    expect(listed.profiles.map((profile: { name: string }) => profile.name)).toEqual(['retrieval', 'capture']);
    // The workspace is not a config key, and a read token cannot choose the capture profile.
    expect((await dispatch('plugins.config_set', { name: 'eden', key: 'WORKSPACE_ID', value: 'ws_home' })).ok).toBe(false);
    const capture = await dispatch('plugins.workspace_select', { name: 'eden', workspace_id: 'ws_research', profile: 'capture' });
    expect(capture.ok === false && capture.error.code).toBe('insufficient_credential_scope');
    const unknown = await dispatch('plugins.workspace_select', { name: 'eden', workspace_id: 'ws_elsewhere' });
    expect(unknown.ok === false && unknown.error.code).toBe('workspace_not_found');

    expect(await must('plugins.workspace_select', { name: 'eden', workspace_id: 'ws_research' })).toMatchObject({ workspace_label: 'Research', profile: 'retrieval', status: 'ready' });
    await liveIs('ready');
    expect((await eden()).tools).toEqual(RETRIEVAL);
    const search = daemon.capabilities.registry.find('eden_search_workspace_items')!;
    expect(search).toMatchObject({ kind: 'mcp', hidden_from_agent: false, metadata: { plugin: 'eden', mcp_remote: true } });
    expect(Object.keys((search.parameters as { properties: object }).properties)).toEqual(['query', 'limit']);
    // The discovery tool is the rail's own: never a capability the agent could call.
    expect(daemon.capabilities.registry.find('eden_list_workspaces')).toBeUndefined();
  });

  it('calls retrieval tools through the invoke boundary in the chosen workspace, refusing what the rail does not pass on', async () => {
    const found = await call('eden_search_workspace_items', { query: 'plans' });
    expect(found.ok && found.result.data).toMatchObject({ ok: true, tool: 'eden_search_workspace_items', args: { query: 'plans', workspaceId: 'ws_research' } });

    // A model-supplied workspace is refused before any request: by the boundary (the argument is not in
    // the exposed schema) and, for a caller that skips it, by the rail itself.
    const before = fake.calls.length;
    const other = await call('eden_search_workspace_items', { query: 'plans', workspaceId: 'ws_home' });
    expect(other.ok === false && other.error.code).toBe('invalid_arguments');
    const direct = await daemon.capabilities.registry.find('eden_search_workspace_items')!.executor!({ query: 'plans', workspaceId: 'ws_home' }, { trust: 'operator', origin: 'cli', signal: new AbortController().signal, services: {} }).catch((error) => error);
    expect(direct.code).toBe('workspace_argument_refused');
    expect(fake.calls.length).toBe(before);

    const broke = await call('eden_find_workspace_items', { query: 'no credits' });
    expect(broke.ok === false && [broke.error.code, broke.error.message]).toEqual(['out_of_credits', expect.stringContaining('no credits left')]);
    for (const mode of ['image', 'audio', 'resource', 'base64']) {
      const media = await call('eden_read_media_card', { cardId: mode });
      expect(media.ok === false && media.error.code, mode).toBe('remote_result_refused');
    }
  });

  it('paces calls at least 500 ms apart and refuses the call past the 16-deep queue with remote_busy', async () => {
    const start = fake.calls.length;
    const answers = await Promise.all(Array.from({ length: 17 }, (_, i) => call('eden_read_card', { cardId: `card-${i}` })));
    const busy = answers.filter((answer) => answer.ok === false);
    expect(busy.map((answer) => answer.ok === false && answer.error.code)).toEqual(['remote_busy']);
    const seen = fake.calls.slice(start);
    expect(seen).toHaveLength(16);
    // Arrival at the fake can only be later than the paced start; the slack covers jitter on the way.
    for (let i = 1; i < seen.length; i += 1) expect(seen[i].at - seen[i - 1].at).toBeGreaterThanOrEqual(400);
  }, 30_000);

  it('offers the capture profile only with a write-scoped token chosen on the setup screen', async () => {
    await must('plugins.set_secret', { name: 'eden', value: EDEN_WRITE_TOKEN });
    expect((await must('plugins.workspaces', { name: 'eden' })).credential_scope).toBe('write');
    await must('plugins.workspace_select', { name: 'eden', workspace_id: 'ws_home', profile: 'capture' });
    await waitFor(async () => (await eden()).tools.length === RETRIEVAL.length + EDEN_CAPTURE_TOOLS.length, 20_000, 'capture tools');
    // A write asks first (external_api, mutating): the person answers the card once.
    const pending = dispatch('capabilities.call', { name: 'eden_create_note', args: { title: 'From Fermix' }, interactive: true });
    await waitFor(async () => (await must('approvals.list')).pending.length > 0, 10_000, 'the approval card');
    for (const card of (await must('approvals.list')).pending) await must('approvals.answer', { id: card.id, answer: 'once' });
    const note = await pending;
    expect(note.ok && note.result.data).toMatchObject({ args: { title: 'From Fermix', workspaceId: 'ws_home' } });
    await must('plugins.workspace_select', { name: 'eden', workspace_id: 'ws_research', profile: 'retrieval' });
    await waitFor(async () => (await eden()).tools.length === RETRIEVAL.length, 20_000, 'retrieval only');
    expect(daemon.capabilities.registry.find('eden_create_note')).toBeUndefined();
  });

  it('a drifted schema gives zero tools and upstream_contract_mismatch in plugins list --json and doctor', async () => {
    const original = fake.tools;
    fake.tools = original.map((tool) => (tool.name === 'eden_read_card' ? { ...tool, inputSchema: { ...tool.inputSchema, properties: { cardId: { type: 'string' }, includeComments: { type: 'boolean' } } } } : tool));
    try {
      await must('plugins.disable', { name: 'eden' });
      await must('plugins.enable', { name: 'eden' });
      await liveIs('upstream_contract_mismatch');
      expect(daemon.capabilities.registry.list().filter((cap) => cap.name.startsWith('eden_'))).toEqual([]);
      const listed = await runFermix(['plugins', 'list', '--json']);
      expect(listed.code, listed.stderr).toBe(0);
      const row = (JSON.parse(listed.stdout).result.plugins as { name: string }[]).find((plugin) => plugin.name === 'eden');
      expect(row).toMatchObject({ status: 'ready', live: 'upstream_contract_mismatch', tools: [], remote: true });
      const doctor = await must('system.doctor');
      const plugins = (doctor.checks as { id: string; detail: string }[]).find((check) => check.id === 'plugins');
      expect(plugins?.detail).toContain('eden (remote; upstream_contract_mismatch');
      // `fermix doctor` from the CLI reads the running daemon's live row.
      const cli = await runFermix(['doctor', '--json']);
      expect((JSON.parse(cli.stdout).result.checks as { id: string; detail: string }[]).find((check) => check.id === 'plugins')?.detail).toContain('eden (remote; upstream_contract_mismatch');
    } finally {
      fake.tools = original;
    }
  });

  it('a token the service stops accepting is reauthorization_required with zero tools', async () => {
    await must('plugins.disable', { name: 'eden' });
    await must('plugins.enable', { name: 'eden' });
    await liveIs('ready');
    fake.tokens.delete(EDEN_WRITE_TOKEN);
    const refused = await call('eden_read_card', { cardId: 'c2' });
    expect(refused.ok === false && [refused.error.code, refused.error.hint]).toEqual(['reauthorization_required', expect.stringContaining('fermix plugins auth set eden')]);
    expect(await eden()).toMatchObject({ live: 'reauthorization_required', tools: [] });
    expect(daemon.capabilities.registry.find('eden_read_card')).toBeUndefined();
  });

  it('re-checks provenance on every load, and without a daemon plugins doctor and doctor say the runtime state is unavailable', async () => {
    fake.tokens.add(EDEN_WRITE_TOKEN);
    await must('plugins.disable', { name: 'eden' });
    await must('plugins.enable', { name: 'eden' });
    await liveIs('ready');
    appendFileSync(join(home, 'plugins', 'installed', 'eden', '1.0.0', 'plugin.json'), '\n');
    const tampered = await eden();
    expect([tampered.status, tampered.tools, tampered.detail]).toEqual(['error', [], expect.stringContaining('plugin_tampered')]);
    expect(daemon.capabilities.registry.list().filter((cap) => cap.name.startsWith('eden_'))).toEqual([]);

    await must('plugins.install', { name: 'eden' });
    await daemon.stop('test done');
    daemon = undefined as unknown as RunningDaemon;
    // No daemon: the static result, the hosted plugin marked remote with no live state, and the CLI says so.
    const doctor = await runFermix(['plugins', 'doctor', 'eden', '--json']);
    expect(doctor.code, doctor.stderr).toBe(0);
    expect(JSON.parse(doctor.stdout).result.plugins).toEqual([expect.objectContaining({ name: 'eden', status: 'ready', live: null, remote: true })]);
    expect(doctor.stderr).toContain('Runtime status unavailable — daemon not running');
    const row = (JSON.parse((await runFermix(['doctor', '--json'])).stdout).result.checks as { id: string; detail: string }[]).find((check) => check.id === 'plugins');
    expect(row?.detail).toContain('runtime status unavailable — daemon not running');
    expect(row?.detail).toContain('eden ready (remote; runtime state unavailable)');
  });
});
