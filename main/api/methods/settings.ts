import { z } from 'zod';
import { defineMethod } from '../define.js';

const applies = z.enum(['now', 'after_restart']);

export const settingsViewSchema = z.object({
  config_file: z.string(),
  permissions: z.object({
    mode: z.enum(['ask', 'auto', 'read_only']),
    /** Rules an "always" answer or the person wrote (last match wins). */
    rules: z.array(z.object({ permission: z.string(), pattern: z.string().nullable(), action: z.string(), source: z.string(), unjailed: z.boolean() })),
  }),
  sandbox: z.object({
    mode: z.enum(['strict', 'standard', 'open']),
    workspace: z.string(),
    /** Folder grants (`fermix grant path`, the chat's directory cards). */
    allowed_roots: z.array(z.string()),
    blocked_roots: z.array(z.string()),
  }),
  transcription: z.object({
    base_url: z.string().nullable(),
    model: z.string().nullable(),
    api_key_ref: z.string().nullable(),
    max_file_mb: z.number(),
  }),
  computer_use: z.object({ enabled: z.boolean() }),
  /** When each kind of edit takes effect in the running daemon. */
  applies: z.object({ providers: applies, permissions: applies, sandbox: applies, transcription: applies }),
});
export type SettingsView = z.infer<typeof settingsViewSchema>;

const changed = settingsViewSchema.extend({ message: z.string() });
const optionalText = (max: number) => z.string().trim().max(max).nullable().optional();

export const settingsMethods = {
  'settings.get': defineMethod({
    description: 'The editable settings from config.toml: permission mode, sandbox mode and grants, transcription.',
    input: z.object({}).strict().default({}),
    output: settingsViewSchema,
  }),
  'settings.update': defineMethod({
    description: 'Change permission mode, sandbox mode or the transcription endpoint (null clears a field). Validated and written atomically.',
    input: z.object({
      permission_mode: z.enum(['ask', 'auto', 'read_only']).optional(),
      sandbox_mode: z.enum(['strict', 'standard', 'open']).optional(),
      transcription: z.object({
        base_url: z.union([z.url({ protocol: /^https?$/ }), z.literal(''), z.null()]).optional(),
        model: optionalText(200),
      }).strict().optional(),
    }).strict(),
    output: changed,
  }),
  'settings.grant_path': defineMethod({
    description: 'Add a folder to [sandbox] allowed_roots (unsafe roots such as all of $HOME or ~/.ssh are refused).',
    input: z.object({ path: z.string().trim().min(1).max(4096) }).strict(),
    output: changed,
  }),
  'settings.revoke_path': defineMethod({
    description: 'Remove a folder from [sandbox] allowed_roots.',
    input: z.object({ path: z.string().trim().min(1).max(4096) }).strict(),
    output: changed,
  }),
  'settings.set_transcription_key': defineMethod({
    description: 'Store the transcription endpoint key in the OS keychain and reference it from [fermix_core.transcription].',
    input: z.object({ api_key: z.string().trim().min(1).max(4096) }).strict(),
    output: changed,
  }),
};
