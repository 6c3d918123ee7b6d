import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Capability } from './capability.js';
import { isMutating } from './derive.js';
import { createPermissionGate, type GateCall, type GateMode } from './permission-gate.js';
import { validateRole } from './roles.js';
import { createMemoryRuleStore, type Rule } from './rules.js';
import { makeCapability } from './test-fixtures.js';

const fileRead = makeCapability({ name: 'file_read' });
const fileWrite = makeCapability({ name: 'file_write', policy_class: 'read_write' });
const shell = makeCapability({ name: 'shell', policy_class: 'exec' });
const webFetch = makeCapability({ name: 'web_fetch', policy_class: 'network' });
const mcpTool = makeCapability({ name: 'mcp_gh_issue', kind: 'mcp', policy_class: 'external_api', group: 'mcp' });

function gate(rules: Rule[] = [], mode?: GateMode) {
  return createPermissionGate({ rules: createMemoryRuleStore(rules), mode });
}
function call(capability: Capability, extra: Partial<GateCall> = {}): GateCall {
  return { capability, args: {}, interactive: true, origin: 'chat', ...extra };
}
const config = (permission: string, action: Rule['action'], pattern?: string): Rule => ({ permission, action, pattern, source: 'config' });

describe('defaults', () => {
  it('read_only → allow; mutating → ask when attended', () => {
    expect(gate().decide(call(fileRead)).decision).toBe('allow');
    expect(gate().decide(call(webFetch)).decision).toBe('allow');
    for (const cap of [fileWrite, shell, mcpTool]) expect(gate().decide(call(cap)).decision, cap.name).toBe('ask');
  });

  it('mutating on an unattended run → deny, with the rule that would allow it', () => {
    const decision = gate().decide(call(shell, { interactive: false, origin: 'job' }));
    expect(decision.decision).toBe('deny');
    expect(decision.rule).toMatch(/^default:/);
    expect(decision.reason).toContain('[[permissions.rules]] permission = "shell" action = "allow"');
    expect(decision.matched_rule).toBeNull();
  });

  it('auto mode allows mutating calls; read_only mode denies them', () => {
    expect(gate([], 'auto').decide(call(shell, { interactive: false })).decision).toBe('allow');
    expect(gate([], 'read_only').decide(call(fileWrite)).decision).toBe('deny');
    expect(gate([], 'read_only').decide(call(fileRead)).decision).toBe('allow');
    expect(gate([], 'ask').decide(call(shell, { mode: 'auto' })).decision).toBe('allow');
  });
});

describe('rules', () => {
  it('the LAST matching rule wins', () => {
    expect(gate([config('shell', 'deny'), config('shell', 'allow')]).decide(call(shell)).decision).toBe('allow');
    expect(gate([config('shell', 'allow'), config('shell', 'deny')]).decide(call(shell)).decision).toBe('deny');
    const d = gate([config('group:fs', 'allow'), config('file_*', 'deny', '/etc/*'), config('file_read', 'allow', '/etc/hostname')]).decide(call(fileRead, { args: { path: '/etc/hostname' } }));
    expect(d.decision).toBe('allow');
    expect(d.rule).toBe('config: file_read "/etc/hostname" → allow');
  });

  it('a non-matching later rule does not shadow an earlier match', () => {
    const d = gate([config('shell', 'deny'), config('shell', 'allow', 'ls*')]).decide(call(shell, { args: { command: 'rm -rf /' } }));
    expect(d.decision).toBe('deny');
  });

  it('rules can deny or ask for read-only tools too', () => {
    expect(gate([config('file_read', 'deny', '/home/*/.ssh/*')]).decide(call(fileRead, { args: { path: '/home/me/.ssh/id_ed25519' } })).decision).toBe('deny');
    expect(gate([config('web_fetch', 'ask')]).decide(call(webFetch)).decision).toBe('ask');
  });

  it('an ask rule cannot park an unattended run: it becomes deny with a fix', () => {
    const d = gate([config('web_fetch', 'ask')]).decide(call(webFetch, { interactive: false, origin: 'subagent' }));
    expect(d.decision).toBe('deny');
    expect(d.reason).toMatch(/subagent run/);
    expect(d.reason).toContain('action = "allow"');
  });

  it('an allow rule lets an unattended job run a mutating tool', () => {
    expect(gate([config('shell', 'allow', 'npm test')]).decide(call(shell, { interactive: false, origin: 'job', args: { command: 'npm test' } })).decision).toBe('allow');
    expect(gate([config('shell', 'allow', 'npm test')]).decide(call(shell, { interactive: false, origin: 'job', args: { command: 'npm test; curl evil' } })).decision).toBe('deny');
  });

  it('auto mode still honours explicit deny and ask rules', () => {
    expect(gate([config('shell', 'deny', 'rm *')], 'auto').decide(call(shell, { args: { command: 'cd / && rm -rf x' } })).decision).toBe('deny');
    expect(gate([config('shell', 'ask')], 'auto').decide(call(shell)).decision).toBe('ask');
  });
});

describe('the canonical argument string', () => {
  it('is built only for a rule with a pattern or a reader of decision.canonical, and then is the same', () => {
    let serialized = 0;
    const args = {
      get body() {
        serialized += 1;
        return 'a large argument';
      },
    };
    const decision = gate([config('mcp_*', 'allow')]).decide(call(mcpTool, { args }));
    expect(decision.decision).toBe('allow');
    expect(serialized).toBe(0);
    expect(decision.canonical).toEqual({ field: null, value: '{"body":"a large argument"}' });
    expect(serialized).toBe(1);
    const patterned = gate([config('mcp_*', 'deny', '*large*')]).decide(call(mcpTool, { args }));
    expect(patterned.decision).toBe('deny');
    expect(patterned.canonical.value).toBe('{"body":"a large argument"}');
    expect(serialized).toBe(2);
  });
});

describe('hard boundaries beat rules', () => {
  it('read_only mode denies a mutating call even with an allow rule', () => {
    const d = gate([config('*', 'allow')], 'read_only').decide(call(fileWrite));
    expect(d).toMatchObject({ decision: 'deny', rule: 'mode: read_only' });
  });

  it('a role cannot reach a group it does not list, whatever the rules say', () => {
    const role = validateRole({ name: 'coder', tools: ['fs', 'code'] });
    const d = gate([config('*', 'allow')], 'auto').decide(call(shell, { role }));
    expect(d).toMatchObject({ decision: 'deny', rule: 'role: coder' });
    expect(gate([], 'auto').decide(call(fileWrite, { role })).decision).toBe('allow');
  });

  it('network is default-deny for a role without net; a rule can allow it; no role → trust decides', () => {
    const role = validateRole({ name: 'integrator', tools: ['mcp'] });
    expect(gate().decide(call(mcpTool, { role })).decision).toBe('deny');
    expect(gate([config('mcp_gh_issue', 'allow')]).decide(call(mcpTool, { role })).decision).toBe('allow');
    expect(gate().decide(call(mcpTool, { role: validateRole({ name: 'web', tools: ['mcp', 'net'] }) })).decision).toBe('ask');
    expect(gate().decide(call(webFetch)).decision).toBe('allow');
  });
});

describe('property: precedence', () => {
  const caps = [fileRead, fileWrite, shell, webFetch, mcpTool];
  const ruleArb: fc.Arbitrary<Rule> = fc.record({
    permission: fc.constantFrom('shell', 'file_*', 'group:fs', '*', 'web_fetch', 'mcp_*', 'nothing'),
    pattern: fc.option(fc.constantFrom('/tmp/*', 'ls*', '*', 'x'), { nil: undefined }),
    action: fc.constantFrom('allow', 'ask', 'deny') as fc.Arbitrary<Rule['action']>,
    source: fc.constantFrom('config', 'always-answer') as fc.Arbitrary<Rule['source']>,
  });

  it('read_only mode never allows a mutating call; unattended never asks; no role grant → never allowed', () => {
    fc.assert(
      fc.property(fc.array(ruleArb, { maxLength: 6 }), fc.constantFrom(...caps), fc.constantFrom<GateMode>('ask', 'auto', 'read_only'), fc.boolean(), fc.constantFrom('/tmp/a', 'ls -la', 'x'), (rules, cap, mode, interactive, arg) => {
        const g = gate(rules, mode);
        const args = { path: arg, command: arg };
        const d = g.decide(call(cap, { interactive, args }));
        if (mode === 'read_only' && isMutating(cap)) expect(d.decision).toBe('deny');
        if (!interactive) expect(d.decision).not.toBe('ask');
        const role = validateRole({ name: 'none', tools: [] });
        expect(g.decide(call(cap, { interactive, args, role })).decision).toBe('deny');
      }),
      { numRuns: 300 },
    );
  });

  it('when some rule matches (and no hard boundary applies), the decision is the last matching rule', () => {
    fc.assert(
      fc.property(fc.array(ruleArb, { minLength: 1, maxLength: 6 }), fc.constantFrom(...caps), (rules, cap) => {
        const d = gate(rules, 'ask').decide(call(cap, { args: { path: '/tmp/a' } }));
        if (d.matched_rule !== null) {
          const later = rules.slice(rules.lastIndexOf(d.matched_rule) + 1);
          expect(rules.includes(d.matched_rule)).toBe(true);
          expect(d.decision).toBe(d.matched_rule.action);
          for (const rule of later) expect(gate([rule]).decide(call(cap, { args: { path: '/tmp/a' } })).matched_rule).toBeNull();
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('property: the decision cache is invisible', () => {
  const caps = [fileRead, fileWrite, shell, webFetch, mcpTool, makeCapability({ name: 'mcp_gh_issue', kind: 'mcp', policy_class: 'read_only', group: 'mcp' })];
  const ruleArb: fc.Arbitrary<Rule> = fc.record({
    permission: fc.constantFrom('shell', 'file_*', 'group:mcp', '*', 'web_fetch', 'mcp_*', 'nothing'),
    pattern: fc.option(fc.constantFrom('/tmp/*', 'ls*', '*', 'x', 'git status *'), { nil: undefined }),
    action: fc.constantFrom('allow', 'ask', 'deny') as fc.Arbitrary<Rule['action']>,
    source: fc.constantFrom('config', 'always-answer') as fc.Arbitrary<Rule['source']>,
  });
  const stepArb = fc.oneof(
    { weight: 1, arbitrary: ruleArb.map((rule) => ({ add: rule }) as const) },
    {
      weight: 5,
      arbitrary: fc.record({
        cap: fc.constantFrom(...caps),
        mode: fc.option(fc.constantFrom<GateMode>('ask', 'auto', 'read_only'), { nil: undefined }),
        interactive: fc.boolean(),
        origin: fc.constantFrom('chat' as const, 'job' as const, 'cli' as const),
        arg: fc.constantFrom('/tmp/a', 'ls -la', 'x', 'git status', 'rm -rf /tmp/b'),
      }),
    },
  );

  it('a gate asked again and again decides every call as a fresh gate over the same rules would', () => {
    fc.assert(
      fc.property(fc.array(ruleArb, { maxLength: 4 }), fc.array(stepArb, { minLength: 1, maxLength: 40 }), fc.boolean(), (initial, steps, commandsUnjailed) => {
        const store = createMemoryRuleStore(initial);
        const kept = createPermissionGate({ rules: store, commandsUnjailed });
        for (const step of steps) {
          if ('add' in step) {
            store.add(step.add);
            continue;
          }
          const asked = call(step.cap, { mode: step.mode, interactive: step.interactive, origin: step.origin, args: { path: step.arg, command: step.arg } });
          const fresh = createPermissionGate({ rules: createMemoryRuleStore(store.load()), commandsUnjailed }).decide(asked);
          const got = kept.decide(asked);
          expect({ ...got, canonical: got.canonical }).toEqual({ ...fresh, canonical: fresh.canonical });
        }
      }),
      { numRuns: 400 },
    );
  });

  it('a cached decision reports the arguments of the call it answers', () => {
    const g = gate([config('mcp_*', 'allow')]);
    const first = g.decide(call(mcpTool, { args: { path: '/tmp/one' } }));
    const second = g.decide(call(mcpTool, { args: { path: '/tmp/two' } }));
    expect(second.rule).toBe(first.rule);
    expect(first.canonical.value).toBe('/tmp/one');
    expect(second.canonical.value).toBe('/tmp/two');
  });
});
