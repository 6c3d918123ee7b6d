/**
 * The scheduling tools' executors reach the daemon's jobs service through `context.services.jobs`
 * (injected by the composition root). The caller's trust comes from the invoke context and its role and
 * visible tools from the turn (request-builder puts `runRole` and a caller-limited `registry` view into
 * the services), so what the job is stamped with is the caller's, never the model's.
 */
import type { ExecutionContext, Executor } from '../core/capabilities/capability.js';
import { OPERATOR_ROLE, type Role } from '../core/capabilities/roles.js';
import { FermixError } from '../core/errors.js';
import type { JobCaller, JobsService } from '../jobs/service.js';

export interface JobsPort {
  service: JobsService;
  /** The role of a caller outside a turn (the CLI's `capabilities call`): the main agent's role. */
  defaultRole(): Role;
  /** Tool names a caller of this trust may see outside a turn. */
  visibleTools(trust: ExecutionContext['trust']): string[];
}

export function jobsOf(context: ExecutionContext): JobsPort {
  const port = (context.services ?? {}).jobs as JobsPort | undefined;
  if (!port || typeof port.service?.create !== 'function') {
    throw new FermixError({
      code: 'service_unavailable',
      message: 'This tool needs the jobs service, which this daemon did not provide.',
      hint: 'This is a wiring bug in the daemon (main/daemon/compose.ts); run `fermix doctor` and report it.',
      data: { service: 'jobs' },
    });
  }
  return port;
}

export function callerOf(context: ExecutionContext, port: JobsPort): JobCaller {
  const services = context.services ?? {};
  const role = (services.runRole as Role | null | undefined) ?? port.defaultRole() ?? OPERATOR_ROLE;
  const registry = services.registry as { list?: () => { name: string }[] } | undefined;
  const visibleTools = typeof registry?.list === 'function' ? registry.list().map((cap) => cap.name) : port.visibleTools(context.trust);
  return { trust: context.trust, role, visibleTools, conversationId: context.conversationId };
}

/** Result text is the JSON the model reads; data is the same object. */
export function jsonResult(data: unknown): Awaited<ReturnType<Executor>> {
  return { text: JSON.stringify(data), data };
}
