import { z } from 'zod';
import { CAPABILITY_GROUPS } from '../core/capabilities/groups.js';
import { BUILTIN_OPERATOR_ROLE } from '../core/capabilities/roles.js';
import { sandboxConfigSchema } from '../sandbox/sandbox-config.js';
import { mcpConfigSchema } from '../mcp/config.js';
import { pluginsSettingsSchema } from '../plugins/settings.js';

/**
 * The whole config.toml, validated at start-up. Every section is strict: an unknown key is a typo
 * until proven otherwise, and it stops start-up with its file, line and name (see config-file.ts).
 * Sections that belong to later features are declared here as they arrive.
 */

const providerSchema = z.object({
  type: z.enum(['openai', 'anthropic', 'openai-compatible']),
  base_url: z.url().optional(),
  model: z.string().min(1),
  primary: z.boolean().default(false),
  /** Keychain reference: `@keyring:<ENV_NAME>` (account fermix, service fermix:<ENV_NAME>). */
  api_key_ref: z.string().regex(/^@keyring:[A-Za-z_][A-Za-z0-9_]*$/, 'must look like @keyring:OPENAI_API_KEY').optional(),
  /** Name of an environment variable holding the key. */
  api_key_env: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name').optional(),
  timeout_ms: z.number().int().min(1000).max(600_000).default(240_000),
  /** The model's context window in tokens; wins over the known limits (compaction's threshold reads it). */
  context_window: z.number().int().min(2_048).max(20_000_000).optional(),
}).strict();

const groupName = z.string().refine((value) => (CAPABILITY_GROUPS as readonly string[]).includes(value), {
  error: (issue) => `unknown group "${String(issue.input)}" (valid groups: ${CAPABILITY_GROUPS.join(', ')})`,
});

const permissionRule = z.object({
  permission: z.string().min(1),
  pattern: z.string().optional(),
  action: z.enum(['allow', 'ask', 'deny']),
  /** "always-answer" marks rules written by an approval card's "always" answer. */
  source: z.enum(['config', 'always-answer']).default('config'),
  /** Saved by an "always" answer for a command that ran without the OS jail; listings label it. */
  unjailed: z.boolean().optional(),
}).strict();

export const configSchema = z.object({
  fermix_web: z.object({
    port: z.number().int().min(0).max(65535).default(4030),
  }).strict().prefault({}),
  fermix_core: z.object({
    profile: z.string().default('general'),
    secret_store: z.enum(['keyring', 'file']).default('keyring'),
    /** After a window conversation's first exchange, ask its provider for a short title (main/agent/conversation-title.ts); false keeps the first words. */
    model_titles: z.boolean().default(true),
    tools: z.object({
      tool_search: z.object({
        enabled: z.boolean().default(true),
        /** Hybrid ranking: a [providers] entry whose /v1/embeddings endpoint embeds queries and tool descriptions (off when absent). */
        embeddings: z.string().regex(/^[a-z0-9_-]+$/i, 'must name a [providers] entry').optional(),
        /** The embeddings model asked of that provider; nomic-embed-text is Ollama's local one. */
        embeddings_model: z.string().min(1).default('nomic-embed-text'),
      }).strict().prefault({}),
      web_search: z.object({ backend: z.enum(['duckduckgo', 'brave', 'exa', 'tavily', 'parallel', 'perplexity', 'firecrawl']).default('duckduckgo') }).strict().prefault({}),
      /** generate_image (main/tools/generate-image.ts): no backend = not_configured; keys come from the secret store or the environment. */
      generate_image: z.object({
        backend: z.enum(['openai', 'xai', 'google', 'openai_codex']).optional(),
        model: z.string().min(1).optional(),
        size: z.string().regex(/^(\d{2,5}x\d{2,5}|auto)$/, 'must be WIDTHxHEIGHT (e.g. 1024x1024) or auto').optional(),
      }).strict().prefault({}),
    }).strict().prefault({}),
    computer_use: z.object({ enabled: z.boolean().default(false) }).strict().prefault({}),
    /** Auto-compaction (reference §2.7): after a reply, when the history passes `threshold` of the model's window. */
    compaction: z.object({
      enabled: z.boolean().default(true),
      threshold: z.number().min(0.3).max(0.98).default(0.85),
    }).strict().prefault({}),
    routing: z.object({
      subagent_provider: z.string().optional(),
      subagent_model: z.string().optional(),
      subagent_effort: z.enum(['none', 'minimal', 'low', 'medium', 'high', 'xhigh']).optional(),
      cron_provider: z.string().optional(),
      cron_model: z.string().optional(),
      cron_effort: z.enum(['none', 'minimal', 'low', 'medium', 'high', 'xhigh']).optional(),
    }).strict().prefault({}),
    transcription: z.object({
      base_url: z.url().optional(),
      model: z.string().optional(),
      api_key_ref: z.string().optional(),
      max_file_mb: z.number().int().min(1).max(200).default(20),
    }).strict().prefault({}),
    /** enabled, trust_dev_key, dev_local and [fermix_core.plugins.<name>] tables; anything else is refused (main/plugins/settings.ts). */
    plugins: pluginsSettingsSchema,
    /** Plugin OAuth clients, one table per provider (main/plugins/auth/providers.ts); the secret stays in the secret store. */
    oauth: z.partialRecord(z.enum(['google', 'github', 'notion', 'x', 'slack', 'tesla']), z.object({
      client_id: z.string(),
      client_secret_ref: z.string().regex(/^keychain:[A-Za-z_][A-Za-z0-9_]{0,127}$/, 'must be "keychain:<item name>"').optional(),
      // RFC 8252 §7.3 loopback: an IP literal, never "localhost"; port 0/absent picks a free one.
      redirect_host: z.enum(['127.0.0.1', '[::1]']).optional(),
      redirect_port: z.number().int().min(0).max(65535).optional(),
    }).strict()).default({}),
  }).strict().prefault({}),
  providers: z.record(z.string().regex(/^[a-z0-9_-]+$/i), providerSchema).default({}),
  sandbox: sandboxConfigSchema.prefault({}),
  permissions: z.object({
    mode: z.enum(['ask', 'auto', 'read_only']).default('ask'),
    rules: z.array(permissionRule).default([]),
  }).strict().prefault({}),
  roles: z.record(z.string(), z.object({ tools: z.array(groupName).min(1) }).strict()).default({}),
  /** Which role each agent runs with (Voss): the main interactive agent; default the built-in `operator` (every group). */
  agents: z.object({
    main: z.object({ role: z.string().min(1).optional() }).strict().prefault({}),
    /** subagents workers (main/agent/subagents/worker-role.ts): default `operator`, always capped by the main role and the narrowed classes. */
    subagent: z.object({ role: z.string().min(1).optional() }).strict().prefault({}),
  }).strict().prefault({}),
  // Both bounds prune oldest-first; the size is an estimate (doctor's audit row shows it).
  audit: z.object({
    retention_days: z.number().int().min(1).max(3650).default(90),
    max_size_mb: z.number().int().min(1).max(100_000).default(200),
  }).strict().prefault({}),
  logging: z.object({ level: z.enum(['debug', 'info', 'warn', 'error']).default('info') }).strict().prefault({}),
  /** Outbound servers and the inbound server (main/mcp/config.ts; reference §2.5). */
  mcp: mcpConfigSchema.prefault({}),
}).strict().superRefine((config, context) => {
  const primaries = Object.entries(config.providers).filter(([, provider]) => provider.primary);
  if (primaries.length > 1) {
    context.addIssue({
      code: 'custom',
      path: ['providers', primaries[1][0], 'primary'],
      message: `only one provider may be primary (found ${primaries.map(([name]) => name).join(', ')})`,
    });
  }
  if (config.roles[BUILTIN_OPERATOR_ROLE] !== undefined) {
    context.addIssue({ code: 'custom', path: ['roles', BUILTIN_OPERATOR_ROLE], message: `"${BUILTIN_OPERATOR_ROLE}" is the built-in role that grants every group; name your role differently` });
  }
  const mainRole = config.agents.main.role;
  if (mainRole !== undefined && mainRole !== BUILTIN_OPERATOR_ROLE && config.roles[mainRole] === undefined) {
    context.addIssue({ code: 'custom', path: ['agents', 'main', 'role'], message: `no role named "${mainRole}" (define [roles.${mainRole}] tools = [...], or use "${BUILTIN_OPERATOR_ROLE}")` });
  }
  const subagentRole = config.agents.subagent.role;
  if (subagentRole !== undefined && subagentRole !== BUILTIN_OPERATOR_ROLE && config.roles[subagentRole] === undefined) {
    context.addIssue({ code: 'custom', path: ['agents', 'subagent', 'role'], message: `no role named "${subagentRole}" (define [roles.${subagentRole}] tools = [...], or use "${BUILTIN_OPERATOR_ROLE}")` });
  }
  // Subagent routing (main/agent/providers/routing.ts): the provider must be configured (by name, or by a
  // type only one provider has), a model belongs to a named provider, and effort needs an OpenAI-protocol one.
  const routing = config.fermix_core.routing;
  const byType = (type: string) => Object.entries(config.providers).filter(([, entry]) => entry.type === type);
  const routedName = routing.subagent_provider === undefined ? undefined : config.providers[routing.subagent_provider] ? routing.subagent_provider : byType(routing.subagent_provider).length === 1 ? byType(routing.subagent_provider)[0][0] : undefined;
  if (routing.subagent_provider !== undefined && routedName === undefined) {
    context.addIssue({ code: 'custom', path: ['fermix_core', 'routing', 'subagent_provider'], message: `no configured provider is named "${routing.subagent_provider}" (configured: ${Object.keys(config.providers).join(', ') || 'none'}); name one of [providers.<name>]` });
  }
  if (routing.subagent_model !== undefined && routing.subagent_provider === undefined) {
    context.addIssue({ code: 'custom', path: ['fermix_core', 'routing', 'subagent_model'], message: 'subagent_model needs subagent_provider: set the provider that serves this model too' });
  }
  const effortProvider = routedName ?? primaries[0]?.[0] ?? Object.keys(config.providers)[0];
  if (routing.subagent_effort !== undefined && effortProvider !== undefined && config.providers[effortProvider].type === 'anthropic') {
    context.addIssue({ code: 'custom', path: ['fermix_core', 'routing', 'subagent_effort'], message: `subagent_effort applies to OpenAI-protocol providers, and subagents run on ${effortProvider} (anthropic); remove it or route subagents to an openai or openai-compatible provider` });
  }
});

export type FermixConfig = z.output<typeof configSchema>;
