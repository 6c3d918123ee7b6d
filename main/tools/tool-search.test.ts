// tool_search (reference §2.2, issue 4 item 4): BM25F over name words, server, description, parameter
// names and descriptions, exact + stemmed terms, a server prior; limit default 5, clamped 1..20; substring fallback on names; the result shape; failure tags.
import { describe, expect, it } from 'vitest';
import type { Capability, ExecutionContext } from '../core/capabilities/capability.js';
import { isFermixError } from '../core/errors.js';
import { malformedToolCall } from './tool-call.js';
import { STEM_PREFIX, terms, words } from './search/tokenizer.js';
import { rankTools, searchDeferredTools, toolSearch } from './tool-search.js';

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

const context = (deferred: Capability[]): ExecutionContext => ({ trust: 'operator', origin: 'chat', signal: new AbortController().signal, services: { deferredTools: () => deferred } });
const names = (list: Capability[], query: string, limit = 5) => rankTools(list, query, limit).matches.map((m) => m.name);

describe('rankTools', () => {
  it('splits snake, camel and kebab names and keeps the exact form next to the stem', () => {
    expect(words('getPullRequest_files-v2')).toEqual(['get', 'pull', 'request', 'files', 'v2']);
    expect(terms('Issues')).toEqual(['issues', `${STEM_PREFIX}issu`]);
    // Plural "issues" names list_issues exactly; the singular reaches create_issue exactly; both share the stem.
    expect(names(catalog, 'github issues')[0]).toBe('github_list_issues');
    expect(names(catalog, 'github issue')[0]).toBe('github_create_issue');
  });

  it('reaches a tool through a stem only ("searching" → search)', () => {
    expect(names(catalog, 'searching gmail')[0]).toBe('gmail_search_messages');
  });

  it('expands software abbreviations (PR → pull request, k8s → kubernetes)', () => {
    const list = [...catalog, cap('github_merge_pull_request', 'Merge a pull request.', ['owner', 'repo', 'number']), cap('cluster_get_pods', 'List kubernetes pods.', ['namespace'])];
    expect(names(list, 'merge PR')[0]).toBe('github_merge_pull_request');
    expect(names(list, 'k8s pods')[0]).toBe('cluster_get_pods');
  });

  it('indexes parameter descriptions, weighted below the description', () => {
    expect(names(catalog, 'zebra')).toHaveLength(5);
    const list = [cap('a_tool', 'Does zebra things.', []), cap('b_tool', 'Does other things.', ['x'])];
    expect(names(list, 'zebra')).toEqual(['a_tool', 'b_tool']);
  });

  it('lifts the tools of the server whose vocabulary matches the query as a whole (server prior)', () => {
    // "send" matches one tool of each server; "channel" and "thread" are chat-server vocabulary.
    const list = [
      cap('chat_send', 'Send text.', ['to']), cap('chat_reply', 'Reply inside a thread of a channel.', ['thread']), cap('chat_channels', 'List every channel.', []),
      cap('mail_send', 'Send text.', ['to']), cap('mail_folders', 'List mail folders.', []),
    ];
    expect(names(list, 'send text to the channel thread', 5).indexOf('chat_send')).toBeLessThan(names(list, 'send text to the channel thread', 5).indexOf('mail_send'));
  });

  it('falls back to a substring of tool names when nothing scores', () => {
    expect(rankTools(catalog, 'thub_cr').matches.map((m) => m.name)).toEqual(['github_create_issue']);
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
        // The exact word "issue" is in create_issue only; list_issues matches through the stem.
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
