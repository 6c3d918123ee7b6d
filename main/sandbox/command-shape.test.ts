// The tree-sitter reading behind the approval card's `git status *` scope: only one plain command qualifies.
import { beforeAll, describe, expect, it } from 'vitest';
import { offeredScopes } from '../core/capabilities/approval-scopes.js';
import { makeCapability } from '../core/capabilities/test-fixtures.js';
import { isSimpleCommand } from './command-shape.js';
import { loadHardline } from './hardline.js';

beforeAll(async () => {
  await loadHardline();
});

describe('isSimpleCommand', () => {
  it('accepts one program with literal words, quoted or not', () => {
    for (const command of ['git status', 'git status -s', 'git status --short "a file.txt"', "npm run 'build'", 'ls -la # list']) expect(isSimpleCommand(command), command).toBe(true);
  });

  it('refuses lists, pipelines, substitutions, expansions, redirects, assignments and broken input', () => {
    for (const command of [
      'git status; rm -rf ~', 'git status && git push', 'git status || true', 'git status | sh', 'git status &',
      'git status $(id)', 'git status `id`', 'git status $HOME', 'git status ${X}', 'git status > out', 'git status <(id)',
      'A=1 git status', '(git status)', '{ git status; }', '! git status', 'git status "unclosed',
      'for x in a; do git status; done', 'git status\nrm -rf ~',
    ]) {
      expect(isSimpleCommand(command), command).toBe(false);
    }
  });

  it('decides the scopes the daemon offers where the character check alone would offer a pattern', () => {
    const shell = makeCapability({ name: 'shell', policy_class: 'exec', metadata: { category: 'system', runs_commands: true } });
    expect(offeredScopes(shell, { command: 'git status "unclosed' }).map((scope) => scope.id)).toEqual(['command', 'exact']);
    expect(offeredScopes(shell, { command: 'git status "unclosed' }, { simpleCommand: isSimpleCommand }).map((scope) => scope.id)).toEqual(['exact']);
    expect(offeredScopes(shell, { command: 'git status -s' }, { simpleCommand: isSimpleCommand }).map((scope) => scope.id)).toEqual(['command', 'exact']);
  });
});
