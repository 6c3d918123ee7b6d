/**
 * The two optional API-3 tool blocks of reference §3.2 in the manifest decoder: `collection_policy`
 * (JSON Pointers per RFC 6901, max_returned_items ≤ 100, default ≤ max) and `argument_guards` (≤ 16,
 * two kinds, no pointer into the injected workspace argument, none repeated), refused on a plugin
 * that is not remote_mcp. Eden's real manifest is the base; the edits are made in memory only.
 */
import { describe, expect, it } from 'vitest';
import { FermixError } from '../core/errors.js';
import { decodeManifest } from './manifest.js';
import { edenManifestJson, GUARDED_COLLECTION, guardedEdenManifest } from '../../test/fixtures/hosted-mcp/guarded-eden-manifest.js';

const LIST = 'eden_list_workspace_items';
const LINKS = 'eden_save_links_to_board';
const urlGuard = (pointer = '/urls') => ({ pointer, kind: 'public_http_url_array', max_items: 20 });

/** Eden's manifest with `fields` set on `tool`; the decoder's verdict as [field, message] or 'ok'. */
function verdict(tool: string, fields: Record<string, unknown>): 'ok' | [string, string] {
  const raw = edenManifestJson((entry) => {
    if (entry.name === tool) Object.assign(entry, fields);
  });
  try {
    decodeManifest(JSON.stringify(raw), 'eden/plugin.json', 'eden');
    return 'ok';
  } catch (error) {
    if (!(error instanceof FermixError)) throw error;
    return [String(error.data?.field), error.message];
  }
}
const index = (tool: string) => (edenManifestJson().tools as { name: string }[]).findIndex((entry) => entry.name === tool);

describe('manifest collection_policy', () => {
  it('accepts the test manifest with both blocks and keeps them as written', () => {
    const manifest = guardedEdenManifest();
    expect(manifest.tools.find((tool) => tool.name === LIST)?.collection_policy).toEqual(GUARDED_COLLECTION);
    expect(manifest.tools.find((tool) => tool.name === LINKS)?.argument_guards).toEqual([urlGuard()]);
    expect(verdict(LIST, { collection_policy: { ...GUARDED_COLLECTION, request_limit_pointer: '/page~1size~0x', result_items_pointer: '/data/0/items', max_returned_items: 100, default_limit: 100 } })).toBe('ok');
  });

  it('refuses max_returned_items over 100, a default over the max, paginated false, unknown fields and pointers that are not RFC 6901', () => {
    const at = `tools[${index(LIST)}].collection_policy`;
    const policy = (change: Record<string, unknown>) => verdict(LIST, { collection_policy: { ...GUARDED_COLLECTION, ...change } });
    expect(policy({ max_returned_items: 101 })[0]).toBe(`${at}.max_returned_items`);
    expect(policy({ max_returned_items: 0 })[0]).toBe(`${at}.max_returned_items`);
    expect(policy({ default_limit: 30 })).toEqual([`${at}.default_limit`, expect.stringContaining('must not exceed max_returned_items')]);
    expect(policy({ paginated: false })[0]).toBe(`${at}.paginated`);
    expect(policy({ cursor_pointer: '/cursor' })).toEqual([`${at}.cursor_pointer`, expect.stringContaining('is not a known field')]);
    for (const pointer of ['limit', '', '/a~2b', '/a~', 'items/0']) {
      expect(policy({ request_limit_pointer: pointer }), pointer).toEqual([`${at}.request_limit_pointer`, expect.stringContaining('RFC 6901')]);
      expect(policy({ result_items_pointer: pointer })[0], pointer).toBe(`${at}.result_items_pointer`);
    }
    expect(policy({ request_limit_pointer: '/workspaceId' })).toEqual([`${at}.request_limit_pointer`, expect.stringContaining('points into workspaceId')]);
  });
});

describe('manifest argument_guards', () => {
  const at = `tools[${index(LINKS)}].argument_guards`;

  it('accepts up to 16 guards and refuses a 17th', () => {
    const guards = (count: number) => Array.from({ length: count }, (_, i) => urlGuard(`/urls${i}`));
    expect(verdict(LINKS, { argument_guards: guards(16) })).toBe('ok');
    expect(verdict(LINKS, { argument_guards: guards(17) })).toEqual([at, expect.stringContaining('at most 16 guards')]);
    expect(verdict(LINKS, { argument_guards: [] })[0]).toBe(at);
  });

  it('refuses an unknown kind, max_items outside 1–100, a bad pointer, a repeated pointer and one into the workspace argument', () => {
    expect(verdict(LINKS, { argument_guards: [{ ...urlGuard(), kind: 'any_string' }] })[0]).toBe(`${at}[0].kind`);
    expect(verdict(LINKS, { argument_guards: [{ ...urlGuard(), max_items: 0 }] })[0]).toBe(`${at}[0].max_items`);
    expect(verdict(LINKS, { argument_guards: [{ ...urlGuard(), max_items: 101 }] })[0]).toBe(`${at}[0].max_items`);
    expect(verdict(LINKS, { argument_guards: [urlGuard('urls')] })[0]).toBe(`${at}[0].pointer`);
    expect(verdict(LINKS, { argument_guards: [urlGuard(), { ...urlGuard(), kind: 'bounded_visible_ascii_array' }] })).toEqual([`${at}[1].pointer`, expect.stringContaining('repeats /urls')]);
    expect(verdict(LINKS, { argument_guards: [urlGuard('/workspaceId')] })).toEqual([`${at}[0].pointer`, expect.stringContaining('points into workspaceId')]);
    expect(verdict(LINKS, { argument_guards: [{ ...urlGuard(), note: 'x' }] })).toEqual([`${at}[0].note`, expect.stringContaining('is not a known field')]);
  });

  it('refuses both blocks on a plugin that is not remote_mcp', () => {
    const http = {
      schema_version: 2, name: 'demo', display_name: 'Demo', description: 'A demo plugin.', category: 'developer', version: '1.0.0', min_core_version: '0.1.0', plugin_api: 2,
      auth: { type: 'none' },
      tools: [{ name: 'demo_list', description: 'List things.', read_only: true, parameters: { type: 'object', properties: {} }, request: { method: 'GET', url: 'https://api.example.com/things' }, argument_guards: [urlGuard()] }],
    };
    expect(() => decodeManifest(JSON.stringify(http), 'demo/plugin.json', 'demo')).toThrow(/tools\[0\]\.argument_guards` is enforced only for a remote_mcp plugin/);
    const { argument_guards: _guards, ...tool } = http.tools[0];
    const withPolicy = { ...http, tools: [{ ...tool, collection_policy: GUARDED_COLLECTION }] };
    expect(() => decodeManifest(JSON.stringify(withPolicy), 'demo/plugin.json', 'demo')).toThrow(/tools\[0\]\.collection_policy` is enforced only for a remote_mcp plugin/);
  });
});
