/**
 * Builds what one model request needs from the live registry: the caller's trust-filtered list, split
 * into advertised schemas and deferred names, the runtime prompt (cached per conversation), and the
 * services the bridges read (a registry view limited to what this caller may see, and the deferred
 * catalog tool_search ranks). Rebuilt per iteration; cheap because both caches key on the registry
 * version.
 */
import type { ToolSet } from 'ai';
import type { Capability, CapabilityRegistry, Origin, Trust } from '../core/capabilities/index.js';
import { isNetwork } from '../core/capabilities/derive.js';
import { roleReaches, type Role } from '../core/capabilities/roles.js';
import { presentTools, toSdkTools, type ToolPresentation } from './deferral.js';
import type { PreparedRequest } from './loop/run-turn.js';
import { buildRuntimePrompt, createPromptCache, type PluginStatus, type SkillSummary } from './runtime-prompt.js';

export interface RequestBuilderOptions {
  registry: CapabilityRegistry;
  deferralEnabled: () => boolean;
  pluginStatus: () => PluginStatus[];
  /** The compact skill catalog for this caller (guests get none). */
  skillCatalog: (trust: Trust) => SkillSummary[];
  /** Recalled memory for this turn, already fenced (main/memory/prompt.ts); '' or absent: no section. */
  memoryPrompt?: (turn: { conversationId: string; trust: Trust; origin: Origin }) => string;
  services: () => Record<string, unknown>;
  now: () => Date;
}

/** Origins where a person is at the keyboard: only they can answer a folder request. */
const ATTENDED_ORIGINS: ReadonlySet<Origin> = new Set(['chat', 'cli', 'voice']);

/**
 * What a model may be offered: never a capability without an executor (calling it could only fail with
 * not_implemented; `fermix capabilities` still lists it), and `request_directory_access` only on an
 * operator's attended turn — guests, jobs, subagents and inbound MCP runs would be refused anyway.
 */
export function offerable(cap: Capability, trust: Trust, origin: Origin, role?: Role | null): boolean {
  if (typeof cap.executor !== 'function') return false;
  // The run's role narrows what is offered exactly as the gate narrows what runs (permission-gate.ts).
  if (role != null && !roleReaches(role, cap, isNetwork(cap))) return false;
  if (cap.name === 'request_directory_access') return trust === 'operator' && ATTENDED_ORIGINS.has(origin);
  return true;
}

export function createRequestBuilder(options: RequestBuilderOptions) {
  const prompts = createPromptCache();
  /**
   * One entry per caller shape (trust, attended, role, allowed tools) for the current registry version: a turn
   * asks for its role's list and auto-compaction for the role-less one, and a single slot rebuilt every tool's
   * SDK schema three times a turn (garbage that held the daemon's RSS up, docs/decisions/0027).
   */
  type ToolEntry = { tools: ToolSet; presentation: ToolPresentation; visible: Capability[]; byName: Map<string, Capability> };
  const toolCache = new Map<string, ToolEntry>();
  let cachedVersion: unknown;
  const MAX_TOOL_ENTRIES = 16;

  function toolsFor(trust: Trust, origin: Origin, enabled: boolean, role: Role | null, allowed: readonly string[] | undefined): ToolEntry {
    if (cachedVersion !== options.registry.version) {
      toolCache.clear();
      cachedVersion = options.registry.version;
    }
    const attended = ATTENDED_ORIGINS.has(origin);
    const key = `${trust}|${attended}|${enabled}|${role === null ? '' : `${role.name}:${role.tools.join(',')}`}|${allowed?.join(',') ?? '*'}`;
    let entry = toolCache.get(key);
    if (!entry) {
      // A job's allowed_tools narrow the list (the registry's allowlist step); they never widen it.
      const visible = options.registry.list_for({ trust, ...(allowed ? { allowed_tools: allowed } : {}) }).filter((cap) => offerable(cap, trust, origin, role));
      const presentation = presentTools(visible, enabled);
      entry = { tools: toSdkTools(presentation.advertised), presentation, visible, byName: new Map(visible.map((cap) => [cap.name, cap])) };
      // Jobs with their own allowed_tools make new shapes: the oldest goes first.
      if (toolCache.size >= MAX_TOOL_ENTRIES) toolCache.delete(toolCache.keys().next().value!);
      toolCache.set(key, entry);
    }
    return entry;
  }

  return {
    prepare(conversationId: string, trust: Trust, origin: Origin = 'chat', role: Role | null = null, allowed?: readonly string[]): PreparedRequest & { presentation: ToolPresentation; promptRebuilt: boolean } {
      const enabled = options.deferralEnabled();
      const { tools, presentation, visible, byName } = toolsFor(trust, origin, enabled, role, allowed);
      const now = options.now();
      const plugins = options.pluginStatus();
      const skills = options.skillCatalog(trust);
      const memory = options.memoryPrompt?.({ conversationId, trust, origin }) ?? '';
      const key = [options.registry.version, trust, ATTENDED_ORIGINS.has(origin), role?.name ?? '', role?.tools.join(',') ?? '', allowed?.join(',') ?? '*', enabled, now.toISOString().slice(0, 10), JSON.stringify(plugins), JSON.stringify(skills), memory].join('|');
      const { prompt, rebuilt } = prompts.get(conversationId, key, () => buildRuntimePrompt({ now, presentation, visible, plugins, skills, memory }));
      const deferred = presentation.deferred;
      return {
        system: prompt,
        tools,
        presentation,
        promptRebuilt: rebuilt,
        services: {
          ...options.services(),
          // tool_describe / tool_help read this: only what this caller may see.
          registry: { find: (name: string) => byName.get(name), list: () => visible },
          // schedule_job stamps the caller's role on the job it creates (main/tools/job-port.ts).
          runRole: role,
          // tool_search ranks this (empty when deferral is off).
          deferredTools: () => deferred,
        },
      };
    },
    clearPrompts(): void {
      prompts.clear();
    },
  };
}
