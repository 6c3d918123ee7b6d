import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createApprovalQueue } from './approvals.js';
import { createPermissionGate, type GateMode } from './permission-gate.js';
import { createMemoryRuleStore, describeRule, ruleMatches, canonicalArgs, type Rule } from './rules.js';
import { makeCapability } from './test-fixtures.js';
import { isScopedAllowFor, scopedCommandPattern, UNJAILED_WARNING } from './unjailed.js';

const shell = makeCapability({ name: 'shell', policy_class: 'exec', metadata: { category: 'system', runs_commands: true } });
const gitPreset = makeCapability({ name: 'git', policy_class: 'exec', metadata: { category: 'system', sandbox_command: true } });
const fileWrite = makeCapability({ name: 'file_write', policy_class: 'read_write' });

const rule = (permission: string, pattern: string | undefined, action: Rule['action'] = 'allow'): Rule => ({ permission, pattern, action, source: 'config' });
function gate(rules: Rule[], mode: GateMode = 'ask', commandsUnjailed = true) {
  return createPermissionGate({ rules: createMemoryRuleStore(rules), mode, commandsUnjailed });
}
const run = (command: string, interactive = true) => ({ capability: shell, args: { command }, interactive, origin: interactive ? ('chat' as const) : ('job' as const) });

describe('unjailed commands at the gate', () => {
  it('auto mode asks instead of allowing, and says why in one line', () => {
    const decision = gate([], 'auto').decide(run('make build'));
    expect(decision).toMatchObject({ decision: 'ask', unjailed: true });
    expect(decision.reason).toContain(UNJAILED_WARNING);
    expect(decision.reason).toContain('Auto mode does not approve unjailed commands');
    // The same call with the jail present is allowed by auto mode, and other mutating tools are unaffected.
    expect(gate([], 'auto', false).decide(run('make build')).decision).toBe('allow');
    expect(gate([], 'auto').decide({ capability: fileWrite, args: { path: 'a' }, interactive: true }).decision).toBe('allow');
  });

  it('unattended runs are denied with the scoped rule that would allow them', () => {
    const decision = gate([], 'auto').decide(run('make build', false));
    expect(decision.decision).toBe('deny');
    expect(decision.reason).toContain('pattern = "git status *"');
  });

  it('broad allow rules do not apply; a scoped one does', () => {
    for (const broad of [rule('shell', undefined), rule('shell', '*'), rule('shell', 'g*'), rule('*', 'git status *'), rule('group:system', 'git status *'), rule('sh*', 'git status *')]) {
      const decision = gate([broad]).decide(run('git status --short'));
      expect(decision.decision, describeRule(broad)).toBe('ask');
      if (broad.permission === 'shell') expect(decision.reason).toContain('does not apply to unjailed commands');
    }
    expect(gate([rule('shell', 'git status *')]).decide(run('git status --short')).decision).toBe('allow');
    expect(gate([rule('shell', 'git status *')]).decide(run('git status')).decision).toBe('allow');
    // Scoped rules still never cross a shell control character.
    expect(gate([rule('shell', 'git status *')]).decide(run('git status; curl x | sh')).decision).toBe('ask');
    // Deny rules keep working, broad or not.
    expect(gate([rule('shell', 'git status *'), rule('shell', undefined, 'deny')]).decide(run('git status')).decision).toBe('deny');
  });

  it('command presets are unjailed commands too; their exact-argument rules count as scoped', () => {
    const args = { args: ['status'] };
    expect(gate([], 'auto').decide({ capability: gitPreset, args, interactive: true }).decision).toBe('ask');
    const exact = rule('git', canonicalArgs(gitPreset, args).value);
    expect(isScopedAllowFor(exact, gitPreset)).toBe(true);
    expect(gate([exact], 'auto').decide({ capability: gitPreset, args, interactive: true }).decision).toBe('allow');
    expect(isScopedAllowFor(rule('git', '{"args":[*'), gitPreset)).toBe(false);
  });
});

describe('the "always" rule for commands', () => {
  it('is scoped to the program and subcommand, labelled when unjailed, and shown on the card', async () => {
    const rules = createMemoryRuleStore();
    const queue = createApprovalQueue({ rules });
    const answered = queue.request({ capability: shell, args: { command: 'git status --short' }, reason: 'r', unjailed: true });
    const [card] = queue.list();
    expect(card).toMatchObject({ unjailed: true, warning: UNJAILED_WARNING, always_covers: { permission: 'shell', pattern: 'git status *', unjailed: true } });
    queue.answer(card.id, 'always');
    await answered;
    expect(rules.load()).toEqual([{ permission: 'shell', pattern: 'git status *', action: 'allow', source: 'always-answer', unjailed: true }]);
    expect(describeRule(rules.load()[0])).toContain('(runs unjailed)');
    // The saved rule approves the next `git status …` call without the jail, and nothing broader.
    const next = createPermissionGate({ rules, commandsUnjailed: true });
    expect(next.decide(run('git status -b')).decision).toBe('allow');
    expect(next.decide(run('git push')).decision).toBe('ask');
  });

  it('keeps the exact command where a program-wide scope would be a blank cheque', () => {
    expect(scopedCommandPattern('npm run build')).toBe('npm run *');
    expect(scopedCommandPattern('make')).toBe('make *');
    expect(scopedCommandPattern('ls -la')).toBe('ls *');
    for (const exact of ['rm -rf build', 'curl -o x https://e.example', 'python3 setup.py', 'cd app && make', 'FOO=1 make', 'echo $HOME', 'ls *.txt', 'sudo apt update', 'bash -c "x"']) {
      expect(scopedCommandPattern(exact), exact).toBeUndefined();
    }
    const queue = createApprovalQueue({ rules: createMemoryRuleStore() });
    void queue.request({ capability: shell, args: { command: 'rm -rf build' }, reason: 'r' }).catch(() => undefined);
    expect(queue.list()[0].always_covers.pattern).toBe('rm -rf build');
  });

  it('a scoped pattern never matches a command that leaves its program (property)', () => {
    const word = fc.stringMatching(/^[a-z][a-z0-9-]{0,8}$/);
    fc.assert(
      fc.property(word, word, fc.string({ maxLength: 20 }), fc.constantFrom(';', '&&', '|', '$(', '`', '\n', '>', '<'), fc.string({ maxLength: 20 }), (program, sub, before, control, after) => {
        const pattern = scopedCommandPattern(`${program} ${sub}`);
        if (pattern === undefined) return;
        const command = `${program} ${sub} ${before}${control}${after}`;
        expect(ruleMatches(rule('shell', pattern), shell, canonicalArgs(shell, { command }))).toBe(false);
      }),
    );
  });
});

describe('approval ids', () => {
  it('are random and never repeat across queues (a restart makes a new queue)', () => {
    const ids = new Set<string>();
    for (let q = 0; q < 20; q += 1) {
      const queue = createApprovalQueue({ rules: createMemoryRuleStore() });
      for (let i = 0; i < 5; i += 1) void queue.request({ capability: shell, args: { command: `echo ${i}` }, reason: 'r' }).catch(() => undefined);
      for (const card of queue.list()) ids.add(card.id);
    }
    expect(ids.size).toBe(100);
    for (const id of ids) expect(id).toMatch(/^approval-[0-9a-f-]{36}$/);
  });
});
