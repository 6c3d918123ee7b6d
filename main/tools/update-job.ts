import { z } from 'zod';
import { defineBuiltin } from './define-builtin.js';
import { lazySchema } from './lazy-schema.js';
import { jobsOf, jsonResult } from './job-port.js';
import { jobView, type UpdateJobInput } from '../jobs/service.js';
import { SCHEDULE_GRAMMAR, deliveryMode, deliveryTarget, jobId, routeModel, routeProvider, skillBinding } from './job-fields.js';

export const updateJobInput = lazySchema(() =>
  z.object({
    job_id: jobId('Id of the job to change.'),
    task: z.string().min(1).optional().describe('Replacement brief for future runs; include every value the run needs.'),
    schedule: z.string().min(1).optional().describe(`Replacement schedule. ${SCHEDULE_GRAMMAR}`),
    description: z.string().optional().describe('Replacement short description.'),
    skill_name: skillBinding().optional(),
    provider: routeProvider().optional(),
    model: routeModel().optional(),
    clear_route_pin: z
      .boolean()
      .optional()
      .describe('Remove the provider/model pin so runs use the default route; not combinable with provider or model.'),
    delivery_mode: deliveryMode().optional(),
    delivery_target: deliveryTarget().optional(),
  }),
);

export const updateJob = defineBuiltin({
  name: 'update_job',
  description: "Update a scheduled job's schedule, prompt, or config in place, instead of removing and recreating it.",
  policy_class: 'read_write',
  category: 'scheduling',
  input: updateJobInput,
  when_to_use: 'The owner supplies a missing detail, wants a different time, or wants results delivered elsewhere.',
  examples: [
    { args: { job_id: 'morning_digest', schedule: '30 7 * * 1-5' }, note: 'move a job earlier' },
    { args: { job_id: 'weather_3f9a', task: 'Send the daily weather for Lisbon, Portugal.' }, note: 'store a value the run needs' },
  ],
  failure_modes: [
    { tag: 'missing_job_id', description: 'job_id is absent or blank' },
    { tag: 'not_found', description: 'no job has that id' },
    { tag: 'empty_update', description: 'no field to change was given' },
    { tag: 'invalid_schedule', description: 'the schedule cannot be parsed' },
    { tag: 'unknown_skill', description: 'skill_name is not a loaded skill' },
    { tag: 'invalid_delivery', description: 'delivery_mode or delivery_target is invalid' },
    { tag: 'invalid_route_pin', description: 'provider/model are not paired, or clear_route_pin was combined with them' },
  ],
  scope_requirements: ['jobs:write'],
  executor: async (args, context) => jsonResult({ job: jobView(jobsOf(context).service.update(args as unknown as UpdateJobInput)) }),
});
