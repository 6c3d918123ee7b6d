/** API handlers for mcp.* (main/api/methods/mcp.ts): thin adapters over the MCP service. */
import type { Handlers } from '../api/dispatcher.js';
import { updateConfig } from '../config/config-file.js';
import { FermixError } from '../core/errors.js';
import type { McpService } from '../mcp/service.js';
import { tailServerLog } from '../mcp/service.js';
import type { ServerState } from '../mcp/supervisor.js';

type McpHandlers = Pick<Handlers, `mcp.${string}` & keyof Handlers>;

export function unknownServer(name: string): FermixError {
  return new FermixError({ code: 'unknown_mcp_server', message: `No MCP server is named ${name}.`, hint: 'Run `fermix mcp list` to see the configured servers, or `fermix mcp add NAME -- CMD ARGS…` to add one.', data: { name } });
}

export function stateView(state: ServerState) {
  return { ...state, tool_count: state.tools.length };
}

function servers(raw: Record<string, unknown>): Record<string, Record<string, unknown>> {
  const mcp = (raw.mcp ??= {}) as Record<string, unknown>;
  return (mcp.servers ??= {}) as Record<string, Record<string, unknown>>;
}

/** The secret-store item for a stdio server's secret env value (the name `@keyring:` accepts). */
export function mcpEnvSecretItem(server: string, env: string): string {
  return `mcp_${server.replace(/-/g, '_')}_${env}`;
}

export function createMcpHandlers(service: McpService, options: { configFile: string; onChange?: () => void; secrets?: () => { set?(name: string, value: string): void } }): McpHandlers {
  const state = (name: string) => {
    const found = service.supervisor.get(name);
    if (!found) throw unknownServer(name);
    return stateView(found);
  };
  const changed = <T>(value: T): T => {
    options.onChange?.();
    return value;
  };
  return {
    'mcp.list': () => ({ servers: service.supervisor.list().map(stateView) }),
    'mcp.tools': (input) => {
      const server = state(input.name);
      const changes = new Map(service.pinning.changes(input.name).map((change) => [change.tool, change]));
      return {
        server,
        tools: service.supervisor.definitions(input.name).map((tool) => {
          const change = changes.get(tool.name);
          const cap = service.registeredTool(input.name, tool.name);
          return {
            name: cap?.name ?? tool.name,
            upstream: tool.name,
            description: tool.description ?? '',
            policy_class: cap?.policy_class ?? 'external_api',
            hidden_from_agent: cap?.hidden_from_agent ?? false,
            changed: change !== undefined,
            declined: change?.declined ?? false,
            differences: change?.differences ?? [],
          };
        }),
      };
    },
    'mcp.restart': (input) => {
      if (!service.supervisor.restart(input.name)) throw unknownServer(input.name);
      return changed({ server: state(input.name) });
    },
    'mcp.reload': () => {
      service.reload();
      return changed({ servers: service.supervisor.list().map(stateView) });
    },
    'mcp.set_enabled': (input) => {
      updateConfig(options.configFile, (raw) => {
        const table = servers(raw)[input.name];
        if (!table) throw unknownServer(input.name);
        table.enabled = input.enabled;
      });
      service.reload();
      return changed({ server: state(input.name) });
    },
    'mcp.add': (input) => {
      if ((input.command === undefined) === (input.url === undefined)) {
        throw new FermixError({ code: 'invalid_input', message: 'Give either a command or a url for the MCP server.', hint: 'fermix mcp add NAME -- CMD ARGS…, or fermix mcp add NAME --url URL.' });
      }
      const envEntries = Object.entries(input.env ?? {});
      if (input.url !== undefined && envEntries.length > 0) {
        throw new FermixError({ code: 'invalid_input', message: 'Environment variables apply to stdio servers (a command) only.', hint: 'Remove the env entries, or add the server with a command instead of a url.' });
      }
      if (envEntries.some(([, entry]) => entry.secret) && !options.secrets?.().set) {
        throw new FermixError({ code: 'secret_store_unavailable', message: 'No secret store can take the secret env values here.', hint: 'Run `fermix doctor` to see the secret store row, then add the server again.' });
      }
      updateConfig(options.configFile, (raw) => {
        const table = servers(raw);
        if (table[input.name]) throw new FermixError({ code: 'duplicate_name', message: `An MCP server named ${input.name} already exists.`, hint: `Remove it first with \`fermix mcp remove ${input.name}\`, or pick another name.` });
        if (input.command === undefined) {
          table[input.name] = { url: input.url };
          return;
        }
        // Secret values are stored before config.toml names them, so a reference never dangles.
        const env = Object.fromEntries(envEntries.map(([key, entry]) => {
          if (!entry.secret) return [key, entry.value];
          const item = mcpEnvSecretItem(input.name, key);
          options.secrets!().set!(item, entry.value);
          return [key, `@keyring:${item}`];
        }));
        table[input.name] = { command: input.command, args: input.args, ...(envEntries.length > 0 ? { env } : {}) };
      });
      service.reload();
      return changed({ server: state(input.name) });
    },
    'mcp.remove': (input) => {
      let removed = false;
      updateConfig(options.configFile, (raw) => {
        const table = servers(raw);
        removed = table[input.name] !== undefined;
        delete table[input.name];
      });
      if (!removed) throw unknownServer(input.name);
      service.reload();
      return changed({ removed, pins_forgotten: service.pins.forget(input.name) });
    },
    'mcp.set_tool_hidden': (input) => {
      state(input.name);
      updateConfig(options.configFile, (raw) => {
        const table = servers(raw)[input.name];
        if (!table) throw unknownServer(input.name);
        const tools = (table.tools ??= {}) as Record<string, Record<string, unknown>>;
        const override = (tools[input.tool] ??= {});
        if (input.hidden) override.hidden_from_agent = true;
        else delete override.hidden_from_agent;
        if (Object.keys(override).length === 0) delete tools[input.tool];
      });
      service.reload();
      return changed({ server: state(input.name) });
    },
    'mcp.logs': (input) => {
      state(input.name);
      const file = service.logFile(input.name);
      return { file, lines: tailServerLog(file, input.lines) };
    },
    'mcp.pins_answer': (input) => {
      state(input.name);
      return changed({ tools: service.pinning.answer(input.name, input.decision).map((change) => change.tool) });
    },
    'mcp.auth_login.start': async (input) => {
      const started = await service.oauth.start(input.name, { port: input.port, timeoutMs: input.timeout_ms });
      if (!started) throw unknownServer(input.name);
      return started;
    },
    'mcp.auth_login.wait': async (input) => {
      state(input.name);
      const done = await service.oauth.wait(input.name, input.timeout_ms);
      return changed({ name: done.name, signed_in: done.signed_in, server: state(input.name) });
    },
    'mcp.auth_logout': async (input) => {
      const done = await service.oauth.logout(input.name);
      if (!done) throw unknownServer(input.name);
      return changed({ name: done.name, deleted: done.deleted, revoked_upstream: done.revoked_upstream, server: state(input.name) });
    },
    'mcp.inbound_list': () => ({ enabled: service.http.enabled(), trust: service.inboundTrust(), tools: service.exposed() }),
    'mcp.inbound_call': async (input, context) => {
      if (!service.http.enabled()) throw new FermixError({ code: 'mcp_inbound_disabled', message: 'Inbound MCP is turned off.', hint: 'Set `[mcp.inbound] enabled = true` in config.toml (`fermix config path` shows where it is).' });
      const result = await service.callExposed(input.name, input.arguments, context.signal);
      return result as { content: Record<string, unknown>[]; structuredContent?: Record<string, unknown>; isError?: boolean };
    },
  };
}
