import { z } from 'zod';
import { defineMethod } from '../define.js';

const notReady = z.object({ component: z.string(), reason: z.string() });

export const systemMethods = {
  'system.health': defineMethod({
    description: 'Liveness and readiness of the daemon, with what is not ready yet.',
    input: z.object({}).strict().default({}),
    output: z.object({ live: z.boolean(), ready: z.boolean(), not_ready: z.array(notReady) }),
  }),
  'system.status': defineMethod({
    description: 'Who is running: pid, version, start time, home, addresses.',
    input: z.object({}).strict().default({}),
    output: z.object({
      pid: z.number().int(),
      version: z.string(),
      started_at: z.string(),
      uptime_s: z.number(),
      home: z.string(),
      http_url: z.string().nullable(),
      socket: z.string(),
      in_flight: z.number().int(),
      /** How a person runs the CLI from the daemon's directory: `fermix`, `npx fermix` in a checkout, or `node …/bin/fermix.cjs`. */
      cli: z.string(),
    }),
  }),
  'system.rotate_token': defineMethod({
    description: 'Sign every window out on purpose: a new URL token, every web session revoked. Returns the new URL.',
    input: z.object({}).strict().default({}),
    output: z.object({ url: z.string(), revoked_sessions: z.number().int() }),
  }),
  'system.stop': defineMethod({
    description: 'Stop the daemon gracefully (in-flight work is cancelled, the store closed).',
    input: z.object({}).strict().default({}),
    output: z.object({ stopping: z.literal(true), pid: z.number().int() }),
  }),
  'system.restart': defineMethod({
    description: 'Restart the daemon (settings that apply at start, e.g. computer use). Headless: a successor starts on the same port; in the app: the app relaunches.',
    input: z.object({}).strict().default({}),
    output: z.object({ restarting: z.literal(true), pid: z.number().int(), mode: z.enum(['respawn', 'relaunch']) }),
  }),
  'system.doctor': defineMethod({
    description: 'Run the doctor checks inside the daemon.',
    input: z.object({}).strict().default({}),
    output: z.object({
      checks: z.array(z.object({
        id: z.string(),
        title: z.string(),
        status: z.enum(['OK', 'WARN', 'FAIL', 'N/A']),
        detail: z.string(),
        fix: z.string(),
      })),
    }),
  }),
};
