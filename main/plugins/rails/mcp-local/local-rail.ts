/**
 * The local-MCP plugin rail: a ready plugin whose manifest declares a node/python/binary runtime runs
 * as its own stdio process (GroupStdioTransport: own process group, stderr to the plugin log) in the
 * installed plugin directory, with a minimal environment plus the manifest's `runtime.env` and the
 * plugin's config keys ([fermix_core.plugins.<name>], e.g. OBSIDIAN_VAULT_PATH). Tools are registered
 * as `<plugin>_<tool>` (tool_name_mode prefix) — only names the signed manifest declares, with the
 * manifest's description and policy class; anything else the server offers is dropped.
 */
import { join } from 'node:path';
import type { Capability, CapabilityRegistry, ToolResult } from '../../../core/capabilities/index.js';
import { FermixError } from '../../../core/errors.js';
import { LOCAL_LIMITS, type McpToolDefinition } from '../../../mcp/client.js';
import { GroupStdioTransport } from '../../../mcp/stdio-transport.js';
import type { PluginManifest } from '../../manifest.js';
import { createMcpPluginRunner, LOCAL_BACKOFF, type McpPluginRunner, type RunnerBackoff, type RunnerState } from './runner.js';

export const PLUGIN_MCP_SOURCE = 'plugin';
/** The registry family of one plugin's MCP tools (kind mcp), apart from operator servers' `mcp_source: operator`. */
export const pluginMcpFamily = (plugin: string) => ({ mcp_source: PLUGIN_MCP_SOURCE, plugin });

export interface LocalPluginSpec {
  manifest: PluginManifest;
  dir: string;
  /** The plugin's config values, injected into the process environment. */
  config: Record<string, string | boolean>;
}

export interface LocalRailOptions {
  registry: CapabilityRegistry;
  daemonEnv?: NodeJS.ProcessEnv;
  backoff?: Partial<RunnerBackoff>;
  timeoutMs?: number;
  onStderrLine?: (plugin: string, line: string) => void;
}

const BASE_ENV = ['PATH', 'HOME', 'LANG', 'LC_ALL', 'TMPDIR', 'USER', 'SYSTEMROOT'];

/** One upstream tool as a plugin capability; shared with the hosted rail. */
export function pluginMcpCapability(manifest: PluginManifest, registered: string, upstream: McpToolDefinition, remote: boolean, call: (args: Record<string, unknown>, signal: AbortSignal) => Promise<ToolResult>, parameters?: Record<string, unknown>): Capability {
  const declared = manifest.tools.find((tool) => tool.name === registered)!;
  return {
    name: registered,
    description: declared.description,
    parameters: parameters ?? (upstream.inputSchema && typeof upstream.inputSchema === 'object' ? upstream.inputSchema : { type: 'object' }),
    output_schema: upstream.outputSchema,
    kind: 'mcp',
    hidden_from_agent: false,
    policy_class: declared.policy_class,
    metadata: { category: 'plugin', plugin_owned: true, ...pluginMcpFamily(manifest.name), mcp_server: manifest.name, mcp_tool: upstream.name, mcp_remote: remote },
    group: 'plugin',
    scope_requirements: [],
    audit_behavior: 'redact_args',
    is_stateful: false,
    is_mutating: !declared.read_only,
    is_network: remote,
    executor: (args, context) => call(args, context.signal),
  };
}

export function localEnvironment(spec: LocalPluginSpec, daemonEnv: NodeJS.ProcessEnv): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of BASE_ENV) if (daemonEnv[name] !== undefined) env[name] = daemonEnv[name]!;
  const runtime = spec.manifest.runtime;
  if (runtime && runtime.kind !== 'remote_mcp') Object.assign(env, runtime.env ?? {});
  for (const entry of spec.manifest.config) {
    const value = spec.config[entry.key];
    if (value !== undefined) env[entry.key] = String(value);
  }
  return env;
}

export function createLocalMcpRail(options: LocalRailOptions) {
  const runners = new Map<string, { key: string; runner: McpPluginRunner }>();
  const daemonEnv = options.daemonEnv ?? process.env;
  const backoff = { ...LOCAL_BACKOFF, ...options.backoff };

  function runnerFor(spec: LocalPluginSpec): McpPluginRunner {
    const { manifest } = spec;
    const runtime = manifest.runtime;
    if (!runtime || runtime.kind === 'remote_mcp') throw new Error(`${manifest.name} has no local runtime`);
    const name = manifest.name;
    const declared = new Set(manifest.tools.filter((tool) => tool.rail === 'mcp').map((tool) => tool.name));
    // `runner` is read only when a tool is called, after it is assigned below.
    const call = (upstream: string) => async (args: Record<string, unknown>, signal: AbortSignal) => {
      const connection = runner.connection();
      if (!connection) throw new FermixError({ code: 'mcp_unavailable', message: `The ${name} plugin's MCP server is not running (${runner.state().status}).`, hint: `Run \`fermix plugins doctor ${name}\` to see why.`, data: { plugin: name } });
      return connection.callTool(upstream, args, { signal });
    };
    const runner: McpPluginRunner = createMcpPluginRunner({
      label: `The ${name} plugin's MCP server`,
      timeoutMs: options.timeoutMs ?? 60_000,
      limits: LOCAL_LIMITS,
      backoff,
      open: async () => new GroupStdioTransport({
        command: runtime.command,
        args: runtime.args,
        env: localEnvironment(spec, daemonEnv),
        cwd: runtime.cwd ? join(spec.dir, runtime.cwd) : spec.dir,
        onStderrLine: (line) => options.onStderrLine?.(name, line),
      }),
      register: (tools) => {
        // prefix mode: upstream `search_notes` is `obsidian_search_notes`; undeclared tools are dropped.
        const caps = tools.filter((tool) => declared.has(`${name}_${tool.name}`)).map((tool) => pluginMcpCapability(manifest, `${name}_${tool.name}`, tool, false, call(tool.name)));
        options.registry.replace_kind('mcp', pluginMcpFamily(name), caps);
        return caps.map((cap) => cap.name);
      },
      unregister: () => void options.registry.unregister_kind('mcp', pluginMcpFamily(name)),
    });
    return runner;
  }

  return {
    /** Starts, keeps or stops runners so they match `specs` (a changed manifest, dir or config restarts). */
    apply(specs: Record<string, LocalPluginSpec>): void {
      for (const [name, entry] of runners) {
        if (specs[name] === undefined) {
          runners.delete(name);
          void entry.runner.stop();
        }
      }
      for (const [name, spec] of Object.entries(specs)) {
        const key = JSON.stringify([spec.dir, spec.manifest.version, spec.config]);
        const existing = runners.get(name);
        if (existing?.key === key) continue;
        if (existing) void existing.runner.stop();
        runners.set(name, { key, runner: runnerFor(spec) });
      }
    },
    state: (name: string): RunnerState | undefined => runners.get(name)?.runner.state(),
    restart(name: string): boolean {
      const entry = runners.get(name);
      entry?.runner.restart();
      return entry !== undefined;
    },
    async settled(): Promise<void> {
      await Promise.all([...runners.values()].map((entry) => entry.runner.settled()));
    },
    async close(): Promise<void> {
      await Promise.all([...runners.values()].map((entry) => entry.runner.stop()));
      runners.clear();
    },
  };
}
export type LocalMcpRail = ReturnType<typeof createLocalMcpRail>;
