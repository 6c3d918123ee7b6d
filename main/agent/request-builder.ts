/**
 * Builds what one model request needs from the live registry: the caller's trust-filtered list, split
 * into advertised schemas and deferred names, the runtime prompt (cached per conversation), and the
 * services the bridges read (a registry view limited to what this caller may see, and the deferred
 * catalog tool_search ranks). Rebuilt per iteration; cheap because both caches key on the registry
 * version.
 */
import type { ToolSet } from 'ai';
import type { Capability, CapabilityRegistry, Trust } from '../core/capabilities/index.js';
import { presentTools, toSdkTools, type ToolPresentation } from './deferral.js';
import type { PreparedRequest } from './loop/run-turn.js';
import { buildRuntimePrompt, createPromptCache, type PluginStatus, type SkillSummary } from './runtime-prompt.js';

export interface RequestBuilderOptions {
  registry: CapabilityRegistry;
  deferralEnabled: () => boolean;
  pluginStatus: () => PluginStatus[];
  skillCatalog: () => SkillSummary[];
  services: () => Record<string, unknown>;
  now: () => Date;
}

export function createRequestBuilder(options: RequestBuilderOptions) {
  const prompts = createPromptCache();
  let toolCache: { key: string; tools: ToolSet; presentation: ToolPresentation; visible: Capability[] } | undefined;

  function toolsFor(trust: Trust, enabled: boolean) {
    const key = `${options.registry.version}|${trust}|${enabled}`;
    if (toolCache?.key !== key) {
      const visible = options.registry.list_for({ trust });
      const presentation = presentTools(visible, enabled);
      toolCache = { key, tools: toSdkTools(presentation.advertised), presentation, visible };
    }
    return toolCache;
  }

  return {
    prepare(conversationId: string, trust: Trust): PreparedRequest & { presentation: ToolPresentation; promptRebuilt: boolean } {
      const enabled = options.deferralEnabled();
      const { tools, presentation, visible } = toolsFor(trust, enabled);
      const now = options.now();
      const plugins = options.pluginStatus();
      const skills = options.skillCatalog();
      const key = [options.registry.version, trust, enabled, now.toISOString().slice(0, 10), JSON.stringify(plugins), JSON.stringify(skills)].join('|');
      const { prompt, rebuilt } = prompts.get(conversationId, key, () => buildRuntimePrompt({ now, presentation, visible, plugins, skills }));
      const byName = new Map(visible.map((cap) => [cap.name, cap]));
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
