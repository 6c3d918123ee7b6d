import { describe, expect, it } from 'vitest';
import { mcpConfigSchema } from './config.js';
import { MAX_TOOL_NAME_BYTES, nameTools } from './naming.js';

describe('MCP tool naming', () => {
  it('lowercases each segment and turns non-alphanumerics into _', () => {
    expect(nameTools('My-Server', ['Fetch-URL.v2', 'list files']).map((t) => t.name)).toEqual(['mcp_my_server_fetch_url_v2', 'mcp_my_server_list_files']);
  });

  it('truncates past 64 bytes with an 8-hex hash suffix, stable across runs', () => {
    const long = 'a'.repeat(80);
    const [named] = nameTools('srv', [long]);
    expect(Buffer.byteLength(named.name)).toBe(MAX_TOOL_NAME_BYTES);
    expect(named.name).toMatch(/^mcp_srv_a+_[0-9a-f]{8}$/);
    expect(named.suffixed).toBe('truncated');
    expect(nameTools('srv', [long])[0].name).toBe(named.name);
  });

  it('gives the later of two colliding tools (and a name another family owns) a hash suffix', () => {
    const named = nameTools('s', ['read-file', 'read_file', 'taken']);
    expect(named[0]).toMatchObject({ name: 'mcp_s_read_file', suffixed: null });
    expect(named[1].name).toMatch(/^mcp_s_read_file_[0-9a-f]{8}$/);
    expect(named[1].suffixed).toBe('collision');
    const withTaken = nameTools('s', ['taken'], new Set(['mcp_s_taken']));
    expect(withTaken[0].name).toMatch(/^mcp_s_taken_[0-9a-f]{8}$/);
  });
});

describe('[mcp] config', () => {
  it('refuses removed keys, both transports at once, and a name in env and pass_env', () => {
    expect(() => mcpConfigSchema.parse({ servers: { a: { command: 'x', approved: true } } })).toThrow();
    expect(() => mcpConfigSchema.parse({ servers: { a: { command: 'x', tools: { t: { requires_approval: true } } } } })).toThrow();
    expect(() => mcpConfigSchema.parse({ servers: { a: { command: 'x', url: 'http://127.0.0.1/mcp' } } })).toThrow(/exactly one/);
    expect(() => mcpConfigSchema.parse({ servers: { a: { command: 'x', env: { T: '1' }, pass_env: ['T'] } } })).toThrow(/both env and pass_env/);
    expect(() => mcpConfigSchema.parse({ servers: { a: { command: 'x', env: { T: '$env:T' } } } })).toThrow(/pass_env/);
    expect(() => mcpConfigSchema.parse({ unknown: {} })).toThrow();
    const parsed = mcpConfigSchema.parse({ servers: { a: { command: 'x' } } });
    expect(parsed.servers.a).toMatchObject({ enabled: true, timeout_ms: 60_000, args: [] });
    expect(parsed.inbound).toMatchObject({ enabled: false, trust: 'operator', policy_classes: ['read_only'] });
  });
});
