/**
 * The runtime prompt (issue 4 item 3): identity and date, the `## Plugins` section (seed 001 "How the
 * agent discovers plugins": ready plugins' tool names; enabled-but-not-ready plugins as
 * `status=<state>` with the fix), the skill catalog, and the names of deferred tools. It is cached per
 * conversation and rebuilt when its inputs change (registry version, day, plugin/skill state), so the
 * provider's prompt cache sees the same bytes turn after turn.
 */
import type { Capability } from '../core/capabilities/index.js';
import { ownerOf, type ToolPresentation } from './deferral.js';

/** What the plugin supervisor reports; [] until plugins exist. */
export interface PluginStatus {
  name: string;
  /** `ready` or a readiness state (needs_auth, needs_config, …). */
  status: string;
  /** One line: the exact command or screen that fixes a not-ready state. */
  fix?: string;
}

export interface SkillSummary {
  name: string;
  description: string;
}

/** Seed 001 "Readiness states": the fix for each state, when the supervisor gives none. */
const READINESS_FIX: Record<string, (name: string) => string> = {
  needs_client_config: () => 'configure the OAuth client on the setup Plugins page',
  needs_auth: (name) => `\`fermix plugins auth login ${name}\` (or connect it on the setup Plugins page)`,
  reauthorization_required: (name) => `\`fermix plugins auth reauthorize ${name}\``,
  needs_secret: (name) => `\`fermix plugins auth set ${name}\``,
  needs_config: (name) => `\`fermix plugins config set ${name} KEY VALUE\``,
  needs_workspace: () => 'choose a workspace on the setup Plugins page',
  missing_host_runtime: (name) => `install or upgrade the runtime, then \`fermix plugins doctor ${name}\``,
  not_installed: (name) => `\`fermix plugins install ${name}\``,
  incompatible: (name) => `\`fermix plugins upgrade ${name}\`, or upgrade Fermix`,
};

export interface PromptInputs {
  now: Date;
  presentation: ToolPresentation;
  /** Every visible capability (advertised and deferred): plugin tools are listed whether deferred or not. */
  visible: readonly Capability[];
  plugins: readonly PluginStatus[];
  skills: readonly SkillSummary[];
  /** The fenced `<memory-context>` block (main/memory/prompt.ts, within MEMORY 2,000 tokens); '' = none. */
  memory?: string;
}

function groupByOwner(caps: readonly Capability[]): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const cap of caps) {
    const owner = cap.kind === 'mcp' && typeof cap.metadata.mcp_server === 'string' && !cap.metadata.plugin ? `mcp:${cap.metadata.mcp_server}` : ownerOf(cap);
    const list = groups.get(owner) ?? [];
    list.push(cap.name);
    groups.set(owner, list);
  }
  return groups;
}

function pluginSection(inputs: PromptInputs): string[] {
  const external = inputs.visible.filter((cap) => cap.kind === 'mcp' || cap.metadata.category === 'plugin');
  const groups = groupByOwner(external);
  const notReady: string[] = [];
  for (const plugin of inputs.plugins) {
    if (plugin.status === 'ready') continue;
    const fix = plugin.fix ?? READINESS_FIX[plugin.status]?.(plugin.name) ?? `\`fermix plugins doctor ${plugin.name}\``;
    notReady.push(`- ${plugin.name} status=${plugin.status} — not connected; fix: ${fix}`);
    groups.delete(plugin.name);
  }
  // By code units, not localeCompare: its first call loads ICU's collation data (~5 ms of the first turn).
  const ready = [...groups].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([owner, names]) => `- ${owner}: ${names.join(', ')}`);
  return [...ready, ...notReady];
}

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

export function buildRuntimePrompt(inputs: PromptInputs): string {
  const date = inputs.now.toISOString().slice(0, 10);
  // From a table, not toLocaleDateString: formatting a date loads ICU's locale data, ~4 MB of the node
  // binary made resident for one English word (docs/decisions/0027, "300 turns").
  const weekday = WEEKDAYS[inputs.now.getUTCDay()];
  const out = [
    'You are Fermix, a personal AI agent running on the owner\'s own computer. You act through the tools offered to you; every tool call is checked by policy and recorded in an audit trail, and some need the owner\'s approval.',
    'Answer plainly. When a tool fails, read its error tag and hint before trying again; do not repeat an identical call.',
    '',
    `Today is ${weekday}, ${date} (UTC).`,
    '',
    '## Plugins',
  ];
  const plugins = pluginSection(inputs);
  out.push(...(plugins.length > 0 ? plugins : ['- none connected']));
  out.push('There is no tool that lists plugins: this section is the list. A plugin with status= is not connected; offer its fix instead of trying its tools.');
  // Seed 001: a connected plugin owns its surface; scraping it with generic tools loses auth and structure.
  out.push('For a surface a connected plugin covers, use that plugin\'s tools rather than browser, web_fetch or shell.');

  if (inputs.presentation.active && inputs.presentation.deferred.length > 0) {
    // The names are listed once, under ## Plugins: repeating them here would cost what deferral saves.
    out.push(
      '',
      '## Deferred tools',
      `The ${inputs.presentation.deferred.length} plugin and MCP tools listed under ## Plugins are available, but their schemas are not loaded, to save tokens. Call tool_describe {"name": …} for a schema, then call the tool by its name (or through tool_call {"name", "arguments"}). tool_search finds a tool by what it does.`,
    );
  }

  out.push('', '## Skills');
  if (inputs.skills.length === 0) out.push('- none installed');
  else for (const skill of inputs.skills) out.push(`- ${skill.name}: ${skill.description.split('\n')[0]}`);
  if (inputs.skills.length > 0) out.push('Read a skill with skill_view before following it; run it with skill_run.');
  if (inputs.memory) out.push('', '## Memory', inputs.memory);
  return out.join('\n');
}

/** Per-conversation cache keyed by everything the prompt is built from. */
export function createPromptCache(maxEntries = 500) {
  const entries = new Map<string, { key: string; prompt: string }>();
  return {
    get(conversationId: string, key: string, build: () => string): { prompt: string; rebuilt: boolean } {
      const hit = entries.get(conversationId);
      if (hit && hit.key === key) return { prompt: hit.prompt, rebuilt: false };
      const prompt = build();
      entries.delete(conversationId);
      entries.set(conversationId, { key, prompt });
      if (entries.size > maxEntries) entries.delete(entries.keys().next().value as string);
      return { prompt, rebuilt: true };
    },
    /** Plugin enable/disable/logout: "the reload drops cached runtime context" (seed 001). */
    clear(): void {
      entries.clear();
    },
    size: () => entries.size,
  };
}
