import { describe, expect, it } from 'vitest';
import { canonicalArgs, createMemoryRuleStore, describeRule, escapeGlob, globToRegExp, normalizePath, patternMatches, permissionMatches, ruleMatches, type Rule } from './rules.js';
import { makeCapability } from './test-fixtures.js';

const shell = makeCapability({ name: 'shell', policy_class: 'exec' });
const fileWrite = makeCapability({ name: 'file_write', policy_class: 'read_write' });
const cmd = (command: string) => canonicalArgs(shell, { command });

describe('globs', () => {
  it('* and ? match, everything else is literal, \\ escapes', () => {
    expect(globToRegExp('file_*').test('file_write')).toBe(true);
    expect(globToRegExp('file_*').test('xfile_write')).toBe(false);
    expect(globToRegExp('a?c').test('abc')).toBe(true);
    expect(globToRegExp('a.c').test('abc')).toBe(false);
    expect(globToRegExp('(x)+[y]').test('(x)+[y]')).toBe(true);
    expect(globToRegExp('a\\*').test('a*')).toBe(true);
    expect(globToRegExp('a\\*').test('ab')).toBe(false);
    expect(globToRegExp('/etc/*').test('/etc/a\nb')).toBe(true);
  });

  it('escapeGlob round-trips to an exact match', () => {
    const text = 'rm -rf * && echo ? \\ done';
    expect(globToRegExp(escapeGlob(text)).test(text)).toBe(true);
    expect(globToRegExp(escapeGlob(text)).test('rm -rf x && echo y \\ done')).toBe(false);
  });

  it('permission: exact, glob, group', () => {
    expect(permissionMatches('file_*', fileWrite)).toBe(true);
    expect(permissionMatches('group:fs', fileWrite)).toBe(true);
    expect(permissionMatches('group:shell', fileWrite)).toBe(false);
    expect(permissionMatches('*', shell)).toBe(true);
    expect(permissionMatches('shel', shell)).toBe(false);
  });
});

describe('canonical argument string', () => {
  it('prefers command, then path-like keys, then the declared field, else stable JSON', () => {
    expect(cmd('ls')).toEqual({ field: 'command', value: 'ls' });
    expect(canonicalArgs(fileWrite, { content: 'x', path: 'a/b' })).toEqual({ field: 'path', value: 'a/b' });
    expect(canonicalArgs(makeCapability({ name: 'm', metadata: { category: 'mcp', permission_field: 'repo' } }), { repo: 'o/r', path: 'x' })).toEqual({ field: 'repo', value: 'o/r' });
    expect(canonicalArgs(shell, { b: 1, a: [true, null] })).toEqual({ field: null, value: '{"a":[true,null],"b":1}' });
  });

  it('normalizes paths so .. cannot escape a pattern', () => {
    expect(normalizePath('/tmp/../etc/passwd')).toBe('/etc/passwd');
    expect(normalizePath('/../..//x/./y/')).toBe('/x/y');
    expect(normalizePath('a/../../b')).toBe('../b');
    expect(normalizePath('./')).toBe('.');
    const args = canonicalArgs(fileWrite, { path: '/tmp/../etc/passwd' });
    expect(patternMatches('/tmp/*', args, 'allow')).toBe(false);
    expect(patternMatches('/etc/*', args, 'deny')).toBe(true);
  });
});

describe('command patterns are asymmetric', () => {
  it('an allow wildcard never crosses shell control characters', () => {
    expect(patternMatches('git status*', cmd('git status --short'), 'allow')).toBe(true);
    for (const sneaky of ['git status; rm -rf ~', 'git status && curl x | sh', 'git status $(rm -rf ~)', 'git status `id`', 'git status\nrm -rf ~', 'git status > ~/.bashrc']) {
      expect(patternMatches('git status*', cmd(sneaky), 'allow'), sneaky).toBe(false);
    }
  });

  it('deny and ask rules also match any segment of a compound command', () => {
    for (const action of ['deny', 'ask'] as const) {
      expect(patternMatches('rm *', cmd('echo hi && rm -rf /'), action)).toBe(true);
      expect(patternMatches('rm *', cmd('echo $(rm -rf /)'), action)).toBe(true);
      expect(patternMatches('rm *', cmd('ls | rm x'), action)).toBe(true);
      expect(patternMatches('rm *', cmd('echo rm'), action)).toBe(false);
    }
  });
});

describe('rule store and descriptions', () => {
  it('the memory store keeps order and copies', () => {
    const store = createMemoryRuleStore([{ permission: 'shell', action: 'deny', source: 'config' }]);
    const rule: Rule = { permission: 'file_*', pattern: '/tmp/*', action: 'allow', source: 'always-answer' };
    store.add(rule);
    rule.action = 'deny';
    expect(store.load().map((r) => r.action)).toEqual(['deny', 'allow']);
    expect(describeRule(store.load()[1])).toBe('always-answer: file_* "/tmp/*" → allow');
  });

  it('ruleMatches needs both permission and pattern', () => {
    const rule: Rule = { permission: 'shell', pattern: 'ls*', action: 'allow', source: 'config' };
    expect(ruleMatches(rule, shell, cmd('ls -la'))).toBe(true);
    expect(ruleMatches(rule, shell, cmd('cat x'))).toBe(false);
    expect(ruleMatches(rule, fileWrite, canonicalArgs(fileWrite, { path: 'ls' }))).toBe(false);
  });
});
