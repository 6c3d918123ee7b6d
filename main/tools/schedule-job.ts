import { z } from 'zod';
import { defineBuiltin } from './define-builtin.js';
import { lazySchema } from './lazy-schema.js';
import { callerOf, jobsOf, jsonResult } from './job-port.js';
import { jobView, type CreateJobInput } from '../jobs/service.js';
import { SCHEDULE_GRAMMAR, deliveryMode, deliveryTarget, routeModel, routeProvider, skillBinding } from './job-fields.js';

export const scheduleJobInput = lazySchema(() =>
  z.object({
    name: z.string().min(1).describe('Human-readable job name; slugged into the job id.'),
    schedule: z.string().min(1).describe(SCHEDULE_GRAMMAR),
    task: z
      .string()
      .min(1)
      .describe('The whole brief for each future run. Runs are isolated and cannot see this conversation: include every value they need.'),
    timezone: z.string().optional().describe('IANA timezone for cron schedules, e.g. Europe/Lisbon (default UTC; unknown zones are rejected).'),
    description: z.string().optional().describe('Short description shown in job lists.'),
    expires_at: z.string().optional().describe('ISO 8601 date-time with offset, in the future, after which the job stops running.'),
    delivery_mode: deliveryMode().optional(),
    delivery_target: deliveryTarget().optional(),
    allowed_tools: z
      .array(z.string())
      .optional()
      .describe('Narrow the run to these tool names; each must be a tool you can call now (unknown names are rejected).'),
    skill_name: skillBinding().optional(),
    provider: routeProvider().optional(),
    model: routeModel().optional(),
    timeout_seconds: z.number().int().min(1).default(1800).describe('Wall-clock limit per run in seconds (default 1800).'),
    inactivity_timeout_seconds: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe('End a run that makes no progress for this many seconds (off by default).'),
  }),
);

export const scheduleJob = defineBuiltin({
  name: 'schedule_job',
  description:
    "Create a cron-style scheduled agent run. The effective capability policy comes from the creator's trust level, not the model's.",
  policy_class: 'read_write',
  category: 'scheduling',
  input: scheduleJobInput,
  when_to_use: 'The owner wants recurring or later work that must reason or use tools when it runs: checks, digests, watchers.',
  examples: [
    {
      args: { name: 'morning_digest', schedule: '0 8 * * 1-5', timezone: 'Europe/Lisbon', task: 'Summarise unread newsletters and today\'s calendar.', delivery_mode: 'origin' },
      note: 'weekday digest at 8am local time',
    },
    { args: { name: 'price_watch', schedule: 'every 6 hours', task: 'Check the price of the Sony WH-1000XM5 on example.com and report drops below 250 EUR.' }, note: 'interval job' },
  ],
  failure_modes: [
    { tag: 'missing_parameters', description: 'name, schedule or task is absent' },
    { tag: 'invalid_schedule', description: 'the schedule is not an interval, a 5-field cron or an ISO 8601 instant' },
    { tag: 'invalid_timezone', description: 'timezone is not a known IANA zone' },
    { tag: 'invalid_expiry', description: 'expires_at is not ISO 8601 with offset, or is not in the future' },
    { tag: 'invalid_delivery', description: 'delivery_mode or delivery_target is invalid' },
    { tag: 'unknown_tools', description: 'allowed_tools names a tool the caller cannot use' },
    { tag: 'unknown_skill', description: 'skill_name is not a loaded skill' },
    { tag: 'invalid_route_pin', description: 'provider is unknown, or provider and model are not set together' },
    { tag: 'no_source_trust', description: 'this context has no trust to stamp on the job' },
  ],
  scope_requirements: ['jobs:write'],
  executor: async (args, context) => {
    const port = jobsOf(context);
    const job = port.service.create(args as unknown as CreateJobInput, callerOf(context, port));
    return jsonResult({ job: jobView(job) });
  },
});
