/**
 * Payload schemas of the system-stream events that an API method file also uses. They live here, not in
 * main/api/methods/, because events.ts needs them when the daemon starts: importing them from the method
 * files built those files' whole method tables (~5 ms of zod at every start, mostly plugins.*), which
 * contract.ts otherwise builds per domain on its first call.
 */
import { z } from 'zod';

/**
 * Computer use's pause switch (the seed's `/pause` and `/resume`, and the tray's Pause / Resume).
 * `/pause` hands mouse and keyboard back to the person: the session stays, further actions are refused
 * until `/resume`. Unlike `/stop`, it never ends a turn.
 */
export const computerStateSchema = z.object({
  /** `[fermix_core.computer_use] enabled` in config.toml (off by default). */
  enabled: z.boolean(),
  paused: z.boolean(),
  /** One sentence for people: what the state means right now. */
  summary: z.string(),
  /** True when config.toml's enabled differs from what this daemon started with (computer.set_enabled; a restart applies it). */
  restart_required: z.boolean().optional(),
  /** True while a computer_use action runs (computer.status and `computer.state` events; absent means false). */
  acting: z.boolean().optional(),
});

/** Emitted on the system stream when a run's row is final: the window and the tray show a notification. */
export const jobRunFinishedSchema = z.object({
  job_id: z.string(),
  job_name: z.string(),
  run_id: z.string(),
  trigger: z.enum(['schedule', 'manual']),
  status: z.enum(['queued', 'running', 'ok', 'error']),
  silent: z.boolean(),
  /** False for delivery_mode none and for [SILENT] runs: nothing to show. */
  notify: z.boolean(),
  /** The Jobs inbox conversation the answer landed in (delivery_mode origin), else null. */
  conversation_id: z.string().nullable(),
  summary: z.string(),
  error_code: z.string().nullable(),
});

/** Emitted on the system stream while an install runs. */
export const pluginInstallProgressSchema = z.object({ plugin: z.string(), version: z.string(), phase: z.enum(['download', 'verify', 'extract', 'activate', 'done']), bytes: z.number().int(), total: z.number().int() });
