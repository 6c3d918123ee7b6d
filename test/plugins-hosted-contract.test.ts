/**
 * Eden's signed manifest pins the fake upstream's tool definitions exactly (descriptor_sha256,
 * output_schema, upstream_annotations), every profile and setup tool is declared, and the API-3
 * fields are required of a remote_mcp tool.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FermixError } from '../main/core/errors.js';
import { decodeManifest } from '../main/plugins/manifest.js';
import { descriptorSha256 } from '../main/plugins/rails/mcp-hosted/contract.js';
import { EDEN_CAPTURE_TOOLS, EDEN_RETRIEVAL_TOOLS, EDEN_SETUP_TOOLS, EDEN_TOOLS } from './fixtures/hosted-mcp/eden-tools.js';
import { PLUGIN_SOURCES } from './fixtures/plugin-fakes/catalog-fixture.js';

const file = join(PLUGIN_SOURCES, 'eden', 'plugin.json');
const text = readFileSync(file, 'utf8');

describe('Eden manifest contract', () => {
  it('pins the hash, output schema and annotations of every upstream tool, and its profiles name them', () => {
    const manifest = decodeManifest(text, file, 'eden');
    expect(manifest.tools.map((tool) => tool.name)).toEqual(EDEN_TOOLS.map((tool) => tool.name));
    for (const upstream of EDEN_TOOLS) {
      const tool = manifest.tools.find((entry) => entry.name === upstream.name)!;
      expect([tool.descriptor_sha256, tool.output_schema, tool.upstream_annotations], upstream.name).toEqual([descriptorSha256(upstream), upstream.outputSchema ?? null, upstream.annotations ?? {}]);
    }
    expect(manifest.setup_tools).toEqual(EDEN_SETUP_TOOLS.map((tool) => tool.name));
    expect(manifest.tool_profiles?.map((profile) => [profile.name, profile.default, profile.required_credential_scope, profile.tools])).toEqual([
      ['retrieval', true, 'read', EDEN_RETRIEVAL_TOOLS.map((tool) => tool.name)],
      ['capture', false, 'write', [...EDEN_RETRIEVAL_TOOLS, ...EDEN_CAPTURE_TOOLS].map((tool) => tool.name)],
    ]);
    expect(manifest.auth).toMatchObject({ key_name: 'EDEN_PERSONAL_ACCESS_TOKEN', validation: { prefix: 'eden_pat_' } });
    expect(manifest.runtime).toMatchObject({ kind: 'remote_mcp', base_url: 'https://mcp.eden.so', mcp_path: '/mcp', tool_name_mode: 'preserve' });
  });

  it('refuses a remote tool without its pin, a setup tool inside a profile, and two default profiles', () => {
    const edit = (change: (raw: any) => void) => {
      const raw = JSON.parse(text);
      change(raw);
      try {
        decodeManifest(JSON.stringify(raw), file, 'eden');
        return null;
      } catch (error) {
        return [(error as FermixError).code, (error as FermixError).data?.field];
      }
    };
    expect(edit((raw) => delete raw.tools[3].descriptor_sha256)).toEqual(['invalid_manifest', 'tools[3].descriptor_sha256']);
    expect(edit((raw) => raw.tool_profiles[0].tools.push('eden_list_workspaces'))).toEqual(['invalid_manifest', 'tool_profiles[0].tools']);
    expect(edit((raw) => (raw.tool_profiles[1].default = true))).toEqual(['invalid_manifest', 'tool_profiles']);
  });
});
