// The scopes "Always allow" offers, and that each saved scope's rule matches later calls of that scope
// and no others (issue 15 item 3), through the real approval queue, rule store and permission gate.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { offeredScopes } from './approval-scopes.js';
import { createApprovalQueue } from './approvals.js';
import { createPermissionGate } from './permission-gate.js';
import { canonicalArgs, createMemoryRuleStore, ruleMatches, type Rule } from './rules.js';
import { makeCapability } from './test-fixtures.js';

const shell = makeCapability({ name: 'shell', policy_class: 'exec', metadata: { category: 'system', runs_commands: true } });
const fileWrite = makeCapability({ name: 'file_write', policy_class: 'read_write' });
const webFetch = makeCapability({ name: 'web_fetch', policy_class: 'network' });
const matches = (rule: Rule, command: string) => ruleMatches(rule, shell, canonicalArgs(shell, { command }));

describe('offered scopes', () => {
  it('a simple command offers program + subcommand (the default) and the exact command, never "every call"', () => {
    const scopes = offeredScopes(shell, { command: 'git status --short' });
    expect(scopes.map((scope) => [scope.id, scope.rule.pattern])).toEqual([['command', 'git status *'], ['exact', 'git status --short']]);
    expect(scopes[0].words).toBe('Commands starting with “git status” (git status *)');
    expect(scopes[1].words).toBe('Exactly this command: git status --short');
  });

  it('a compound command, a pipeline or a substitution offers only itself, exactly', () => {
    for (const command of ['git status; rm -rf ~', 'git status && git push', 'git status | sh', 'git status $(id)', 'git status `id`', 'git status > out', 'A=1 git status']) {
      expect(offeredScopes(shell, { command }).map((scope) => scope.id), command).toEqual(['exact']);
    }
  });

  it('the shell parser has the last word: a command it does not read as plain gets no pattern', () => {
    const scopes = offeredScopes(shell, { command: 'git status' }, { simpleCommand: () => false });
    expect(scopes.map((scope) => scope.id)).toEqual(['exact']);
  });

  it('a file tool offers this file (the default), this folder and this tool', () => {
    const scopes = offeredScopes(fileWrite, { path: 'notes/./today/a.txt', content: 'x' });
    expect(scopes.map((scope) => [scope.id, scope.rule.pattern])).toEqual([['file', 'notes/today/a.txt'], ['folder', 'notes/today/*'], ['tool', undefined]]);
    expect(scopes.map((scope) => scope.words)).toEqual(['This file only: notes/today/a.txt', 'Any file in notes/today and its subfolders', 'Every file_write call, whatever the arguments']);
    // No folder scope that would be everything: a file at the top or in /.
    expect(offeredScopes(fileWrite, { path: 'a.txt' }).map((scope) => scope.id)).toEqual(['file', 'tool']);
    expect(offeredScopes(fileWrite, { path: '/a.txt' }).map((scope) => scope.id)).toEqual(['file', 'tool']);
  });

  it('any other tool offers its exact argument and the tool; an unjailed call never offers "every call"', () => {
    expect(offeredScopes(webFetch, { url: 'https://example.com/*' }).map((scope) => [scope.id, scope.rule.pattern])).toEqual([['exact', 'https://example.com/\\*'], ['tool', undefined]]);
    expect(offeredScopes(fileWrite, { path: 'a/b.txt' }, { unjailed: true }).every((scope) => scope.id !== 'tool' && scope.rule.unjailed === true)).toBe(true);
  });
});

describe('saving a scope', () => {
  it('stores the chosen scope\'s rule, which allows that scope at the gate and asks for everything else', async () => {
    const rules = createMemoryRuleStore();
    const queue = createApprovalQueue({ rules });
    const gate = createPermissionGate({ rules });
    const asked = queue.request({ capability: fileWrite, args: { path: 'notes/a.txt', content: 'x' }, reason: 'r' });
    queue.answer(queue.list()[0].id, 'always', 'folder');
    expect(await asked).toBe('always');
    expect(rules.load()).toEqual([{ permission: 'file_write', pattern: 'notes/*', action: 'allow', source: 'always-answer' }]);
    const decide = (path: string) => gate.decide({ capability: fileWrite, args: { path }, interactive: true }).decision;
    expect(decide('notes/b.txt')).toBe('allow');
    expect(decide('notes/deep/c.txt')).toBe('allow');
    expect(decide('notes/../secrets.txt')).toBe('ask');
    expect(decide('other/a.txt')).toBe('ask');
  });

  it('refuses a scope the card did not offer, and leaves the card waiting', () => {
    const rules = createMemoryRuleStore();
    const queue = createApprovalQueue({ rules });
    void queue.request({ capability: shell, args: { command: 'git status; rm -rf ~' }, reason: 'r' });
    const id = queue.list()[0].id;
    expect(() => queue.answer(id, 'always', 'command')).toThrow(/offers no scope "command"/);
    expect(rules.load()).toEqual([]);
    expect(queue.list()).toHaveLength(1);
    queue.answer(id, 'always');
    expect(rules.load()[0].pattern).toBe('git status; rm -rf ~');
  });
});

describe('a saved `git status *` rule (fuzzed)', () => {
  const saved = offeredScopes(shell, { command: 'git status -s' })[0].rule;
  const word = fc.stringMatching(/^[A-Za-z0-9_.\/=-]{1,12}$/);
  const args = fc.array(word, { maxLength: 4 }).map((words) => words.join(' '));

  it('matches git status with any plain arguments', () => {
    expect(saved.pattern).toBe('git status *');
    fc.assert(fc.property(args, (rest) => matches(saved, `git status ${rest}`.trim())));
  });

  it('never matches another program or subcommand', () => {
    fc.assert(
      fc.property(word, word, args, (program, sub, rest) => {
        fc.pre(!(program === 'git' && sub === 'status'));
        return !matches(saved, `${program} ${sub} ${rest}`.trim());
      }),
    );
  });

  it('never matches a command with ; && | or $( anywhere after it', () => {
    const joiner = fc.constantFrom(';', '&&', '|', '||', '$(', '`', '\n', '&', '>', '<(');
    fc.assert(fc.property(args, joiner, args, (before, glue, after) => !matches(saved, `git status ${before}${glue}${after}`)));
    fc.assert(fc.property(args, joiner, args, (before, glue, after) => !matches(saved, `git status ${before} ${glue} ${after}`)));
  });
});
