/**
 * The hosted rail's call shaping without a network (the wire is test/plugins-hosted-collection.test.ts):
 * for generated inputs, the limit sent is always within 1…max_returned_items (the default when absent)
 * and the caller's arguments are never changed; a result keeps exactly the first max items in data and
 * in text; public URLs pass the URL guard and every refused range, scheme or userinfo is refused;
 * visible ASCII passes the string guard and nothing else does.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FermixError } from '../../../core/errors.js';
import { checkArgumentGuards, type ArgumentGuard } from './argument-guards.js';
import { capResultItems, limitRequest, type CollectionPolicy } from './collection-policy.js';
import { refusedUrl, visibleAscii, withOneInvisible } from '../../../../test/fixtures/hosted-mcp/guard-inputs.js';

const policy: CollectionPolicy = { paginated: true, request_limit_pointer: '/page/limit', default_limit: 10, result_items_pointer: '/data/items', max_returned_items: 25 };
const urlGuard: ArgumentGuard = { pointer: '/urls', kind: 'public_http_url_array', max_items: 8 };
const asciiGuard: ArgumentGuard = { pointer: '/tags', kind: 'bounded_visible_ascii_array', max_items: 8 };
const verdict = (guard: ArgumentGuard, values: unknown) => {
  try {
    checkArgumentGuards('demo', 'demo_save', [guard], { [guard.pointer.slice(1)]: values });
    return 'sent';
  } catch (error) {
    if (!(error instanceof FermixError)) throw error;
    return error.code;
  }
};

describe('collection policy', () => {
  it('sends the default when the limit is absent, and any number clamped into 1…max, leaving the arguments as they were', () => {
    expect(limitRequest('demo', 'demo_list', policy, { q: 'x' })).toEqual({ args: { q: 'x', page: { limit: 10 } }, lowered: null });
    fc.assert(fc.property(fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }), (asked) => {
      const args = { page: { limit: asked, cursor: 'c' } };
      const sent = limitRequest('demo', 'demo_list', policy, args);
      const limit = (sent.args.page as { limit: number }).limit;
      expect(Number.isInteger(limit) && limit >= 1 && limit <= 25).toBe(true);
      expect(sent.lowered).toBe(asked > 25 ? asked : null);
      expect(args).toEqual({ page: { limit: asked, cursor: 'c' } });
    }));
    expect(() => limitRequest('demo', 'demo_list', policy, { page: { limit: '5' } })).toThrow(expect.objectContaining({ code: 'invalid_arguments' }));
    expect(() => limitRequest('demo', 'demo_list', policy, { page: 'first' })).toThrow(expect.objectContaining({ code: 'invalid_arguments' }));
  });

  it('keeps exactly the first max items, in data and in the text the model reads, and notes the cut', () => {
    fc.assert(fc.property(fc.array(fc.integer(), { maxLength: 60 }), fc.boolean(), (items, structured) => {
      const body = { ok: true, data: { items, next: 'n' } };
      const result = capResultItems(policy, { args: {}, lowered: null }, structured ? { text: 'a listing in prose', data: body } : { text: JSON.stringify(body) });
      const kept = items.slice(0, 25);
      if (items.length <= 25) {
        expect(result.text).not.toContain('truncated');
        return;
      }
      expect(result.data).toEqual({ ok: true, data: { items: kept, next: 'n' } });
      const [json, note] = result.text.split('\n\n');
      expect(JSON.parse(json)).toEqual(result.data);
      expect(note).toContain(`kept the first 25 of ${items.length} items at /data/items`);
    }));
    expect(capResultItems(policy, { args: {}, lowered: null }, { text: 'not json' })).toEqual({ text: 'not json' });
  });
});

describe('argument guards', () => {
  it('public http(s) URLs pass; loopback, private, link-local, multicast and local-name hosts, other schemes and userinfo are refused', () => {
    const publicName = fc.domain().filter((name) => !/(^|\.)(localhost|local|internal)$/.test(name));
    fc.assert(fc.property(fc.array(fc.tuple(fc.constantFrom('http', 'https'), publicName, fc.webPath()), { maxLength: 8 }), (parts) => {
      expect(verdict(urlGuard, parts.map(([scheme, host, path]) => `${scheme}://${host}${path}`))).toBe('sent');
    }));
    fc.assert(fc.property(refusedUrl, (url) => {
      expect(verdict(urlGuard, [url]), url).toBe('blocked_url');
    }), { numRuns: 500 });
    expect([verdict(urlGuard, 'https://example.com/'), verdict(urlGuard, [7]), verdict(urlGuard, Array(9).fill('https://example.com/')), verdict(urlGuard, undefined)]).toEqual(['invalid_arguments', 'invalid_arguments', 'invalid_arguments', 'sent']);
  });

  it('strings of 0x20–0x7E only pass the ASCII guard; one other character anywhere is refused', () => {
    fc.assert(fc.property(fc.array(visibleAscii(), { maxLength: 8 }), (tags) => {
      expect(verdict(asciiGuard, tags)).toBe('sent');
    }));
    fc.assert(fc.property(withOneInvisible, (text) => {
      expect(verdict(asciiGuard, ['fine', text])).toBe('invalid_arguments');
    }), { numRuns: 500 });
    expect(verdict(asciiGuard, Array(9).fill('a'))).toBe('invalid_arguments');
  });
});
