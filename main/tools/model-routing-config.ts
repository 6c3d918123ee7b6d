import { z } from 'zod';
import { loadConfig, updateConfig } from '../config/config-file.js';
import type { FermixConfig } from '../config/schema.js';
import type { Executor } from '../core/capabilities/capability.js';
import { FermixError, isFermixError } from '../core/errors.js';
import { defineBuiltin } from './define-builtin.js';
import { lazySchema } from './lazy-schema.js';

/** Exactly the keys of `[fermix_core.routing]` in main/config/schema.ts. */
export const ROUTING_KEYS = ['subagent_provider', 'subagent_model', 'subagent_effort', 'cron_provider', 'cron_model', 'cron_effort'] as const;
export type RoutingKey = (typeof ROUTING_KEYS)[number];
const EFFORTS = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh'] as const;

export const modelRoutingConfigInput = lazySchema(() =>
  z.object({
    action: z.enum(['read', 'set', 'delete']).describe('read the [fermix_core.routing] section, set keys, or delete keys.'),
    key: z.enum(ROUTING_KEYS).optional().describe('One routing key for set or delete.'),
    value: z.string().min(1).optional().describe('New value for set with key: a provider name from [providers], a model id, or an effort (none, minimal, low, medium, high, xhigh).'),
    values: z
      .partialRecord(z.enum(ROUTING_KEYS), z.string().min(1))
      .optional()
      .describe('Several keys at once for set, e.g. {"subagent_provider": "openai", "subagent_model": "gpt-5-mini"}: a provider and its model must be set together.'),
    keys: z.array(z.enum(ROUTING_KEYS)).optional().describe('Several keys at once for delete (delete a provider together with its model).'),
  }),
);

type Routing = Partial<Record<RoutingKey, string>>;

function routingError(message: string, hint: string, code = 'invalid_routing'): FermixError {
  return new FermixError({ code, message, hint });
}

function configFileOf(services: Record<string, unknown>): string {
  const file = services.configFile;
  if (typeof file !== 'string' || file === '') {
    throw new FermixError({ code: 'config_unavailable', message: 'model_routing_config cannot find config.toml on this path.', hint: 'This is a wiring fault in the daemon (services.configFile): run `fermix doctor`.' });
  }
  return file;
}

function currentRouting(config: FermixConfig): Routing {
  const out: Routing = {};
  for (const key of ROUTING_KEYS) {
    const value = config.fermix_core.routing[key];
    if (value !== undefined) out[key] = value;
  }
  return out;
}

/** Checks a routing section after the change: providers exist, provider and model come in pairs, efforts are known. */
export function checkRouting(routing: Routing, providerNames: readonly string[]): void {
  for (const scope of ['subagent', 'cron'] as const) {
    const provider = routing[`${scope}_provider`];
    const model = routing[`${scope}_model`];
    if (provider !== undefined && model === undefined) {
      throw routingError(`${scope}_provider is set to ${provider} without ${scope}_model.`, `Set both together: {"action": "set", "values": {"${scope}_provider": "${provider}", "${scope}_model": "<model id>"}}.`);
    }
    if (model !== undefined && provider === undefined) {
      throw routingError(`${scope}_model is set to ${model} without ${scope}_provider.`, `Set both together: {"action": "set", "values": {"${scope}_provider": "<provider>", "${scope}_model": "${model}"}}.`);
    }
    if (provider !== undefined && !providerNames.includes(provider)) {
      throw routingError(
        `No provider named ${provider} is configured.`,
        providerNames.length > 0 ? `Use one of: ${providerNames.join(', ')}.` : 'Configure a provider first (`fermix providers add`, or Settings → Models).',
      );
    }
    const effort = routing[`${scope}_effort`];
    if (effort !== undefined && !(EFFORTS as readonly string[]).includes(effort)) {
      throw routingError(`${scope}_effort ${JSON.stringify(effort)} is not a reasoning effort.`, `Use one of: ${EFFORTS.join(', ')}.`);
    }
  }
}

function describe(routing: Routing, config: FermixConfig) {
  const providers = Object.keys(config.providers);
  const primary = providers.find((name) => config.providers[name].primary) ?? providers[0] ?? null;
  return { routing, providers, primary };
}

export const routeModels: Executor = async (args, context) => {
  const file = configFileOf(context.services);
  const { config } = loadConfig(file);
  const before = currentRouting(config);
  const action = args.action;
  if (action === 'read') {
    const data = describe(before, config);
    return { text: JSON.stringify(data), data };
  }
  const changes: Routing = { ...(args.values as Routing | undefined) };
  const removals = new Set<RoutingKey>((args.keys as RoutingKey[] | undefined) ?? []);
  if (typeof args.key === 'string') {
    if (action === 'set') {
      if (typeof args.value !== 'string') throw routingError('set with key needs a value.', 'Call {"action": "set", "key": "<key>", "value": "<value>"}.', 'invalid_key');
      changes[args.key as RoutingKey] = args.value;
    } else {
      removals.add(args.key as RoutingKey);
    }
  }
  if (action === 'set' && Object.keys(changes).length === 0) {
    throw routingError('set needs key and value, or values.', 'Call {"action": "set", "values": {"subagent_provider": "<provider>", "subagent_model": "<model>"}}.', 'invalid_key');
  }
  if (action === 'delete' && removals.size === 0) {
    throw routingError('delete needs key or keys.', 'Call {"action": "delete", "keys": ["subagent_provider", "subagent_model"]}.', 'invalid_key');
  }
  if (action !== 'set' && action !== 'delete') {
    throw routingError(`Unknown action ${JSON.stringify(action)}.`, 'Use read, set or delete.', 'invalid_action');
  }
  const after: Routing = { ...before, ...(action === 'set' ? changes : {}) };
  if (action === 'delete') for (const key of removals) delete after[key];
  checkRouting(after, Object.keys(config.providers));

  let next: FermixConfig;
  try {
    next = updateConfig(file, (raw) => {
      const core = ((raw.fermix_core ??= {}) as Record<string, unknown>);
      const routing = ((core.routing ??= {}) as Record<string, unknown>);
      for (const key of ROUTING_KEYS) {
        if (after[key] === undefined) delete routing[key];
        else routing[key] = after[key];
      }
    });
  } catch (error) {
    if (isFermixError(error) && error.code.startsWith('config_')) throw error;
    throw new FermixError({ code: 'write_failed', message: `config.toml could not be written: ${(error as Error).message}.`, hint: `Check the permissions of ${file}; \`fermix doctor\` checks the home.`, cause: error });
  }
  const data = describe(currentRouting(next), next);
  return { text: JSON.stringify(data), data };
};

export const modelRoutingConfig = defineBuiltin({
  name: 'model_routing_config',
  description: 'Read or update model routing in config.toml: provider, model and reasoning effort for delegated sub-agents and for scheduled (cron) jobs.',
  policy_class: 'read_write',
  category: 'config',
  input: modelRoutingConfigInput,
  when_to_use: 'Inspect or change which provider, model and reasoning effort subagents and scheduled jobs use.',
  examples: [
    { args: { action: 'read' }, note: 'show current routing and the configured providers' },
    { args: { action: 'set', values: { subagent_provider: 'openai', subagent_model: 'gpt-5-mini' } }, note: 'run subagents on a smaller model (a provider and its model go together)' },
  ],
  failure_modes: [
    { tag: 'invalid_action', description: 'action is not read, set or delete' },
    { tag: 'invalid_key', description: 'key/value (or values/keys) missing for set or delete' },
    { tag: 'invalid_routing', description: 'a provider without its model (or the reverse), an unknown provider, or an unknown effort' },
    { tag: 'write_failed', description: 'config.toml could not be written' },
  ],
  scope_requirements: ['config:read', 'config:write'],
  // Routing values are free text a model may fill with something it should not (a key pasted by mistake);
  // the audit keeps them scrubbed.
  audit_behavior: 'redact_args',
  executor: routeModels,
});
