import { z } from 'zod';
import { defineMethod } from '../define.js';

/** Same rule as `[providers.<name>]` in config.toml. */
const providerName = z.string().regex(/^[a-z0-9_-]{1,64}$/i, 'letters, digits, _ and - (at most 64)');
/** Never logged, never echoed back, never written to config: it goes to the OS keychain. */
const apiKey = z.string().trim().min(1).max(4096);

/**
 * Settings → Models and the first-run card: the same edits as `fermix providers add|remove|primary|set-key`,
 * written to config.toml (validated, atomic); the daemon reads config at every turn, so they apply to the next message.
 */
export const providerSettingsMethods = {
  'providers.probe_models': defineMethod({
    description: 'The model list of a provider that is not saved yet (first-run card, Settings → Add provider): nothing is stored.',
    input: z.object({
      type: z.enum(['openai', 'anthropic', 'openai-compatible']),
      base_url: z.url({ protocol: /^https?$/ }).optional(),
      api_key: apiKey.optional(),
    }).strict(),
    output: z.object({ models: z.array(z.string()) }),
  }),
  'providers.add': defineMethod({
    description: 'Add (or replace) a provider; with api_key the key is stored in the OS keychain and referenced from config.',
    input: z.object({
      name: providerName,
      type: z.enum(['openai', 'anthropic', 'openai-compatible']),
      model: z.string().trim().min(1).max(200),
      base_url: z.url({ protocol: /^https?$/ }).optional(),
      primary: z.boolean().default(false),
      api_key: apiKey.optional(),
    }).strict(),
    output: z.object({ name: z.string(), primary: z.boolean(), api_key_ref: z.string().nullable() }),
  }),
  'providers.remove': defineMethod({
    description: 'Remove a provider from config.toml (its keychain entry stays).',
    input: z.object({ name: providerName }).strict(),
    output: z.object({ name: z.string() }),
  }),
  'providers.set_primary': defineMethod({
    description: 'Make one provider primary; the others become fallbacks.',
    input: z.object({ name: providerName }).strict(),
    output: z.object({ primary: z.string() }),
  }),
  'providers.set_model': defineMethod({
    description: "Change a provider's model (pick it from providers.models).",
    input: z.object({ name: providerName, model: z.string().trim().min(1).max(200) }).strict(),
    output: z.object({ name: z.string(), model: z.string() }),
  }),
  'providers.set_key': defineMethod({
    description: "Store a provider's API key in the OS keychain and reference it from config.toml.",
    input: z.object({ name: providerName, api_key: apiKey }).strict(),
    output: z.object({ name: z.string(), api_key_ref: z.string() }),
  }),
};
