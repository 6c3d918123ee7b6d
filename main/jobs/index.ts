/**
 * Scheduled jobs, assembled for the composition root: store, scheduler (injectable clock), runner
 * (agent turns with origin `job`), delivery (Jobs inbox + `job.run_finished`), and the service the
 * tools, the API and the CLI share. Only the daemon creates this: nothing else schedules.
 */
import type { CapabilityRegistry } from '../core/capabilities/registry.js';
import type { Role } from '../core/capabilities/roles.js';
import type { Database } from '../store/database.js';
import type { StoredMessage } from '../store/turns.js';
import { systemClock, type JobClock } from './clock.js';
import { createJobDelivery } from './delivery.js';
import { createJobStore } from './job-store.js';
import { createJobRunner, jobPrompt, type JobAgent } from './runner.js';
import { createScheduler, type SchedulerLogger } from './scheduler.js';
import { createJobsService } from './service.js';
import type { JobsPort } from '../tools/job-port.js';

export interface JobsModuleOptions {
  db: Database;
  agent: JobAgent & {
    store: {
      ensureConversation(id: string, title: string): { created: boolean };
      appendMessage(conversationId: string, turnId: string | null, message: StoredMessage): number;
    };
  };
  registry: CapabilityRegistry;
  emit(stream: string, type: string, payload: unknown): void;
  /** Conversation soft delete (ConversationStore.remove): a run's own conversation leaves the sidebar. */
  hideConversation(conversationId: string): void;
  /** Events of one stream (EventBus.subscribe filtered): a run's progress, for its inactivity timeout. */
  watch?(stream: string, seen: () => void): () => void;
  /** The main agent's role now (the stamp for callers outside a turn). */
  mainRole(): Role;
  providers(): string[];
  clock?: JobClock;
  logger?: SchedulerLogger;
}

export function createJobs(options: JobsModuleOptions) {
  const clock = options.clock ?? systemClock;
  const store = createJobStore(options.db, clock.now);
  const delivery = createJobDelivery({
    ensureConversation: (id, title) => options.agent.store.ensureConversation(id, title),
    appendAssistant: (conversationId, text) => void options.agent.store.appendMessage(conversationId, null, { role: 'assistant', text, toolCalls: [] }),
    emit: options.emit,
  });
  const execute = createJobRunner({ agent: options.agent, clock, startRun: (runId, links) => store.startRun(runId, links), hideConversation: options.hideConversation, watch: options.watch });
  const scheduler = createScheduler({
    store,
    clock,
    execute,
    promptFor: (job, at) => jobPrompt(job, at),
    logger: options.logger,
    onFinished: (job, run) => void delivery.deliver(job, run),
  });
  const service = createJobsService({ store, scheduler, clock, providers: options.providers });
  const port: JobsPort = {
    service,
    defaultRole: options.mainRole,
    visibleTools: (trust) => options.registry.list_for({ trust }).filter((cap) => typeof cap.executor === 'function').map((cap) => cap.name),
  };
  return { store, scheduler, service, port, clock };
}

export type Jobs = ReturnType<typeof createJobs>;
export { createManualClock, systemClock, type JobClock, type ManualClock } from './clock.js';
