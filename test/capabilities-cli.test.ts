import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { apiCall, runFermix, runFermixAsync, startDaemonProcess, tempHome, type DaemonProcess } from './support/daemon-process.js';

const EVERY_FIELD = ['name', 'description', 'parameters', 'output_schema', 'kind', 'has_executor', 'status', 'hidden_from_agent', 'policy_class', 'metadata', 'category', 'is_mutating', 'is_network', 'derived_from', 'group', 'scope_requirements', 'audit_behavior', 'is_stateful', 'timeout_ms'];

describe('fermix capabilities against a running daemon', () => {
  const home = tempHome();
  let daemon: DaemonProcess;
  beforeAll(async () => {
    daemon = await startDaemonProcess(home);
  });
  afterAll(async () => {
    daemon.child.kill('SIGTERM');
    await daemon.exited;
  });

  it('lists at least 38 capabilities as JSON, each with every normalized field', async () => {
    const result = await runFermixAsync(home, ['capabilities', 'list', '--json']);
    expect(result.code, result.stderr).toBe(0);
    const capabilities = JSON.parse(result.stdout).result.capabilities as Record<string, unknown>[];
    expect(capabilities.length).toBeGreaterThanOrEqual(38);
    for (const cap of capabilities) {
      for (const field of EVERY_FIELD) expect(cap, `${cap.name} lacks ${field}`).toHaveProperty(field);
      expect((cap.metadata as { failure_modes: unknown[] }).failure_modes.length, String(cap.name)).toBeGreaterThan(0);
    }
    const names = capabilities.map((cap) => cap.name);
    for (const name of ['shell', 'file_read', 'tool_search', 'tool_describe', 'tool_call', 'request_directory_access', 'react']) expect(names).toContain(name);
  });

  it('prints a grouped, compact list for people', async () => {
    const result = await runFermixAsync(home, ['capabilities']);
    expect(result.stdout).toMatch(/^fs\s+.*file_read/m);
    expect(result.stdout).toMatch(/^git\s+.*git_read/m);
    expect(result.stdout).toMatch(/\d+ capabilities/);
  });

  it('inspects file_read with path required and its failure modes', async () => {
    const result = await runFermixAsync(home, ['capabilities', 'inspect', 'file_read', '--json']);
    const cap = JSON.parse(result.stdout).result;
    expect(cap.parameters.required).toContain('path');
    expect(cap).toMatchObject({ policy_class: 'read_only', category: 'file', group: 'fs', is_mutating: false, kind: 'builtin' });
    expect(cap.metadata.failure_modes.map((mode: { tag: string }) => mode.tag)).toContain('not_found');
    const text = await runFermixAsync(home, ['capabilities', 'inspect', 'file_read']);
    expect(text.stdout).toContain('path (required)');
    const unknown = await runFermixAsync(home, ['capabilities', 'inspect', 'no_such_tool']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('fermix capabilities list');
  });

  it('refuses file_write for a guest with the policy reason, and audits the denial', async () => {
    const result = await runFermixAsync(home, ['capabilities', 'call', 'file_write', '--trust', 'guest', '--args', '{"path":"notes.txt","content":"hi"}']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('read_write');
    expect(result.stderr).toContain('guest');
    const audit = await runFermixAsync(home, ['audit', '--capability', 'file_write', '--decision', 'deny', '--json']);
    const records = JSON.parse(audit.stdout).result.records;
    expect(records.length).toBeGreaterThanOrEqual(1);
    expect(records[0]).toMatchObject({ capability: 'file_write', decision: 'deny', trust: 'guest', origin: 'cli', error_code: 'policy_denied' });
  });

  it('names the field when arguments are invalid, and records the rejection', async () => {
    const result = await runFermixAsync(home, ['capabilities', 'call', 'tool_help', '--args', '{"name": 42}']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/name/);
    const audit = await apiCall(daemon, 'audit.query', { capability: 'tool_help', decision: 'rejected' });
    expect(audit.body.result.records[0]).toMatchObject({ error_code: 'invalid_arguments' });
  });

  it('runs a tool with an executor through the boundary and audits it as allowed', async () => {
    const result = await runFermixAsync(home, ['capabilities', 'call', 'tool_help', '--args', '{"name":"file_read"}']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('file_read');
    const audit = await apiCall(daemon, 'audit.query', { capability: 'tool_help', decision: 'allow' });
    expect(audit.body.result.records[0]).toMatchObject({ origin: 'cli', trust: 'operator', error_code: null });
  });

  it('every built-in the daemon registers has a real executor: none is listed as not implemented', async () => {
    // (The not_implemented path itself — listed, never offered to a model, refused when called — is
    // proven with an executor-less capability in main/core/capabilities/invoke.test.ts and
    // main/agent/offered-tools.test.ts.)
    const { body } = await apiCall(daemon, 'capabilities.list', {});
    const builtins = (body.result.capabilities as Array<{ name: string; kind: string; status: string }>).filter((cap) => cap.kind === 'builtin');
    expect(builtins.length).toBeGreaterThanOrEqual(35);
    expect(builtins.filter((cap) => cap.status !== 'ready').map((cap) => `${cap.name}: ${cap.status}`)).toEqual([]);
  });

  it('exports the audit trail as JSONL and CSV', async () => {
    const jsonl = await runFermixAsync(home, ['audit', '--export', 'jsonl']);
    const lines = jsonl.stdout.trim().split('\n').map((line) => JSON.parse(line));
    expect(lines.length).toBeGreaterThanOrEqual(3);
    const csv = await runFermixAsync(home, ['audit', '--export', 'csv']);
    expect(csv.stdout.split('\n')[0]).toBe('id,time,conversation_id,trust,origin,capability,kind,policy_class,decision,rule,approval,args_mode,args,duration_ms,result_bytes,truncated,error_code');
  });
});

describe('fermix roles check', () => {
  it('lists what each role reaches', () => {
    const home = tempHome();
    writeFileSync(join(home, 'config.toml'), '[roles.reviewer]\ntools = ["fs", "git"]\n');
    const result = runFermix(home, ['roles', 'check', '--json']);
    expect(result.code, result.stderr).toBe(0);
    const role = JSON.parse(result.stdout).result.roles[0];
    expect(role.name).toBe('reviewer');
    expect(role.capabilities).toContain('file_read');
    expect(role.capabilities).toContain('git_read');
    expect(role.capabilities).not.toContain('shell');
    expect(role.capabilities).not.toContain('web_fetch');
  });

  it('`roles list` shows the built-in operator and which role the main agent uses; net tools need net', () => {
    const home = tempHome();
    writeFileSync(join(home, 'config.toml'), '[roles.offline]\ntools = ["fs", "mcp", "browser"]\n[agents.main]\nrole = "offline"\n');
    const result = runFermix(home, ['roles', 'list', '--json']);
    expect(result.code, result.stderr).toBe(0);
    const { roles, main } = JSON.parse(result.stdout).result;
    expect(main).toBe('offline');
    expect(roles.map((role: { name: string }) => role.name)).toEqual(['operator', 'offline']);
    expect(roles[0]).toMatchObject({ builtin: true, used_by: [] });
    expect(roles[1]).toMatchObject({ builtin: false, used_by: ['agents.main'] });
    // browser is in the browser group but uses the network: without net the role does not reach it.
    expect(roles[1].capabilities).toContain('file_read');
    expect(roles[1].capabilities).not.toContain('browser');
    expect(roles[0].capabilities).toContain('web_fetch');
  });

  it('rejects an unknown group with its name', () => {
    const home = tempHome();
    writeFileSync(join(home, 'config.toml'), '[roles.reviewer]\ntools = ["fs", "telepathy"]\n');
    const result = runFermix(home, ['roles', 'check']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('telepathy');
    expect(result.stderr).toContain('config.toml:2');
  });
});
