// tool_search (reference §2.2): BM25 k1 1.5, b 0.75 over name + description + top-level parameter
// names; limit default 5, clamped 1..20; substring fallback on names; the result shape; failure tags.
import { describe, expect, it } from 'vitest';
import type { Capability, ExecutionContext } from '../core/capabilities/capability.js';
import { isFermixError } from '../core/errors.js';
import { malformedToolCall } from './tool-call.js';
import { rankTools, searchDeferredTools, tokenize, toolSearch } from './tool-search.js';

function cap(name: string, description: string, params: string[] = [], metadata: Record<string, unknown> = { category: 'plugin', plugin: name.split('_')[0] }): Capability {
  return {
    name, description,
    parameters: { type: 'object', properties: Object.fromEntries(params.map((p) => [p, { type: 'string', description: 'ignored words zebra' }])) },
    kind: 'builtin', hidden_from_agent: false, policy_class: 'external_api', metadata: metadata as Capability['metadata'],
    group: 'plugin', scope_requirements: [], audit_behavior: 'full', is_stateful: false,
  };
}

const catalog = [
  cap('github_create_issue', 'Create a new issue in a GitHub repository.', ['owner', 'repo', 'title', 'body']),
  cap('github_list_issues', 'List issues in a GitHub repository, filtered by state.', ['owner', 'repo', 'state']),
  cap('slack_post_message', 'Post a message to a Slack channel.', ['channel', 'text']),
  cap('gmail_search_messages', 'Search Gmail messages with a query.', ['query', 'max_results']),
  cap('notion_create_page', 'Create a page in a Notion database.', ['parent_id', 'title']),
];

/** An independent BM25 (straight from the formula), to check the ranking and scores. */
function bm25(docs: string[][], query: string[]): number[] {
  const n = docs.length;
  const avg = docs.reduce((s, d) => s + d.length, 0) / n;
  return docs.map((doc) => [...new Set(query)].reduce((score, term) => {
    const df = docs.filter((d) => d.includes(term)).length;
    const tf = doc.filter((t) => t === term).length;
    if (tf === 0) return score;
    const idf = Math.log((n - df + 0.5) / (df + 0.5) + 1);
    return score + (idf * tf * 2.5) / (tf + 1.5 * (1 - 0.75 + (0.75 * doc.length) / avg));
  }, 0));
}

const context = (deferred: Capability[]): ExecutionContext => ({ trust: 'operator', origin: 'chat', signal: new AbortController().signal, services: { deferredTools: () => deferred } });

describe('rankTools', () => {
  it('ranks exactly as BM25 with k1 1.5 and b 0.75 over name, description and parameter names', () => {
    const docs = catalog.map((c) => [...tokenize(c.name), ...tokenize(c.description), ...Object.keys(c.parameters.properties as object).flatMap(tokenize)]);
    for (const query of ['create github issue', 'post message slack channel', 'search messages query', 'page title']) {
      const scores = bm25(docs, tokenize(query));
      const expected = catalog.map((c, i) => ({ name: c.name, score: scores[i] })).filter((e) => e.score > 0).sort((a, b) => b.score - a.score || (a.name < b.name ? -1 : 1)).map((e) => e.name);
      const { matches, topScore } = rankTools(catalog, query, 20);
      expect(matches.map((m) => m.name), query).toEqual(expected);
      expect(topScore).toBeCloseTo(Math.max(...scores), 12);
    }
  });

  it('does not index schema bodies (parameter descriptions)', () => {
    expect(rankTools(catalog, 'zebra').matches).toEqual([]);
  });

  it('falls back to a substring of tool names when nothing scores', () => {
    expect(rankTools(catalog, 'hub_cre').matches.map((m) => m.name)).toEqual(['github_create_issue']);
    expect(rankTools(catalog, 'ithub_c').matches.map((m) => m.name)).toEqual(['github_create_issue']);
  });

  it('defaults to 5 results and clamps the limit to 1..20', () => {
    const many = Array.from({ length: 30 }, (_, i) => cap(`svc_tool_${i}`, 'Does a thing with widgets.'));
    expect(rankTools(many, 'widgets').matches).toHaveLength(5);
    expect(rankTools(many, 'widgets', 0).matches).toHaveLength(1);
    expect(rankTools(many, 'widgets', 99).matches).toHaveLength(20);
  });
});

describe('the tool_search executor', () => {
  it('returns {query, total_available, matches:[{name, plugin, description ≤ 400}]}', async () => {
    const long = cap('mcp_big_tool', `Search ${'very '.repeat(200)}long.`, [], { category: 'mcp', mcp_server: 'big' });
    const result = await toolSearch.executor!({ query: 'github issue', limit: 2 }, context([...catalog, long]));
    expect(result.data).toEqual({
      query: 'github issue',
      total_available: 6,
      matches: [
        // "issue" is a token of create_issue only (list_issues says "issues": no stemming, as in Fermix).
        { name: 'github_create_issue', plugin: 'github', description: 'Create a new issue in a GitHub repository.' },
        { name: 'github_list_issues', plugin: 'github', description: 'List issues in a GitHub repository, filtered by state.' },
      ],
    });
    expect(JSON.parse(result.text)).toEqual(result.data);
    const big = await searchDeferredTools({ query: 'search very long' }, context([long]));
    expect((big.data as any).matches[0]).toMatchObject({ plugin: 'mcp' });
    expect((big.data as any).matches[0].description.length).toBe(400);
  });

  it('fails with missing_query and no_matches', async () => {
    const blank = await searchDeferredTools({ query: '  ' }, context(catalog)).catch((e: unknown) => e);
    expect(isFermixError(blank) && blank.code).toBe('missing_query');
    const none = await searchDeferredTools({ query: 'quantum teleportation' }, context(catalog)).catch((e: unknown) => e);
    expect(isFermixError(none) && none.code).toBe('no_matches');
    expect(isFermixError(none) && none.hint).toContain('Deferred tools');
  });

  it('says plainly when it is called where there is no deferred catalog', async () => {
    const error = await searchDeferredTools({ query: 'x' }, { ...context([]), services: {} }).catch((e: unknown) => e);
    expect(isFermixError(error) && error.code).toBe('registry_unavailable');
  });
});

describe('tool_call', () => {
  it('answers a malformed call with corrective text (malformed_call)', async () => {
    const error = await malformedToolCall({ name: '', arguments: 'not json' }, context([])).catch((e: unknown) => e);
    expect(isFermixError(error) && error.code).toBe('malformed_call');
    expect(isFermixError(error) && error.message).toContain('`name` is missing or blank; `arguments` is a string that is not a JSON object');
    expect(isFermixError(error) && error.hint).toContain('{"name": "<exact tool name>", "arguments": {…}}');
  });
});
