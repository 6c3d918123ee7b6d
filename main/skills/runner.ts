/**
 * skill_run (reference §2.4 "Running"): a supervised sub-turn whose tools are the intersection of
 * - what the caller could be offered right now (its trust, its role, and — when the caller is itself a
 *   skill's sub-turn — that skill's set), and
 * - what the skill may use: its `allowed_tools` (absent = trust default, [] = none) under its `policy`,
 *   at the lower of the caller's and the skill's trust (plugin-shipped skills are guests), and for
 *   `role: sub` (the default) without read_write and gui_control, as for every delegated run.
 * Recursion is capped at 4 nested runs; each run writes one journal line; the skill's
 * `timeout_seconds` bounds it.
 */
import type { Capability, CapabilityRegistry, ExecutionContext, Role, Trust } from '../core/capabilities/index.js';
import { resolvePolicy, subagentPolicy } from '../core/capabilities/trust.js';
import { FermixError } from '../core/errors.js';
import { offerable } from '../agent/request-builder.js';
import type { LoadedSkill } from './loader.js';
import type { SubTurnRequest, SubTurnResult } from './sub-turn.js';

export const SKILL_RECURSION_CAP = 4;

/** What a skill sub-turn leaves in its calls' services, so a nested skill_run stays inside it. */
export interface SkillScope {
  depth: number;
  allowed: string[];
  trust: Trust;
}

export interface SkillRunnerDeps {
  registry: CapabilityRegistry;
  /** The run's role (every run uses the main agent's role today: roles.ts mainAgentRole). */
  role: () => Role | null;
  subTurn: (request: SubTurnRequest) => Promise<SubTurnResult>;
  find: (name: string) => LoadedSkill;
  journal: (entry: Record<string, unknown>) => void;
  onEvent?: (message: string, fields: Record<string, unknown>) => void;
}

export function skillScopeOf(context: ExecutionContext): SkillScope | null {
  const scope = (context.services ?? {}).skillScope as SkillScope | undefined;
  return scope && typeof scope.depth === 'number' && Array.isArray(scope.allowed) ? scope : null;
}

/** The tools a skill's sub-turn gets (exported for tests and `skill_view`). */
export function skillTools(deps: Pick<SkillRunnerDeps, 'registry' | 'role'>, skill: LoadedSkill, context: ExecutionContext): { trust: Trust; tools: Capability[] } {
  const outer = skillScopeOf(context);
  const callerTrust: Trust = context.trust === 'operator' && (outer === null || outer.trust === 'operator') ? 'operator' : 'guest';
  const trust: Trust = callerTrust === 'operator' && skill.trust === 'operator' ? 'operator' : 'guest';
  const role = deps.role();
  const callerNames = new Set(
    deps.registry.list_for({ trust: callerTrust }).filter((cap) => offerable(cap, callerTrust, context.origin, role)).map((cap) => cap.name),
  );
  if (outer !== null) for (const name of [...callerNames]) if (!outer.allowed.includes(name)) callerNames.delete(name);
  const classes = resolvePolicy(trust, skill.policy ?? null).allow;
  const skillClasses = skill.role === 'sub' ? subagentPolicy(classes) : classes;
  const skillSide = deps.registry.list_for({ trust, policy_classes: skillClasses, allowed_tools: skill.allowed_tools ?? null });
  // Offered inside the sub-turn: never request_directory_access (origin subagent), never an executor-less stub.
  const tools = skillSide.filter((cap) => callerNames.has(cap.name) && offerable(cap, trust, 'subagent', role));
  return { trust, tools };
}

function systemPrompt(skill: LoadedSkill, depth: number): string {
  return [
    `You are running the Fermix skill "${skill.name}" as a delegated sub-run (depth ${depth} of ${SKILL_RECURSION_CAP}). Follow the skill's instructions below to do the task you are given, using only the tools offered. When done, answer with the result; nobody can answer questions during this run.`,
    '',
    `## Skill: ${skill.name}`,
    skill.body,
  ].join('\n');
}

export function createSkillRunner(deps: SkillRunnerDeps) {
  return {
    async run(input: { name: string; task: string; context?: string }, context: ExecutionContext): Promise<SubTurnResult & { skill: string; depth: number; tools: string[] }> {
      const outer = skillScopeOf(context);
      const depth = (outer?.depth ?? 0) + 1;
      if (depth > SKILL_RECURSION_CAP) {
        // Reference: exceeding the cap emits [:fermix,:capability,:recursion_capped].
        deps.onEvent?.('capability recursion_capped', { skill: input.name, depth });
        throw new FermixError({ code: 'max_depth', message: `Skills may nest at most ${SKILL_RECURSION_CAP} levels; ${input.name} would be level ${depth}.`, hint: 'Do this step in the current skill run instead of starting another skill.', data: { depth, cap: SKILL_RECURSION_CAP } });
      }
      const skill = deps.find(input.name);
      const { trust, tools } = skillTools(deps, skill, context);
      const started = Date.now();
      const timeoutMs = skill.timeout_seconds * 1000;
      const timer = AbortSignal.timeout(timeoutMs);
      const signal = AbortSignal.any([context.signal, timer]);
      const message = input.context ? `${input.task}\n\nContext from the conversation:\n${input.context}` : input.task;
      const entry: Record<string, unknown> = { time: new Date(started).toISOString(), skill: skill.name, source: skill.source, trust, caller_trust: context.trust, origin: context.origin, conversation_id: context.conversationId ?? null, depth, tools: tools.map((cap) => cap.name) };
      let result: SubTurnResult;
      try {
        result = await deps.subTurn({
          system: systemPrompt(skill, depth),
          message,
          trust,
          tools,
          maxIterations: skill.max_iterations,
          signal,
          services: { ...context.services, skillScope: { depth, allowed: tools.map((cap) => cap.name), trust } satisfies SkillScope },
          route: {
            ...(skill.provider !== undefined ? { provider: skill.provider } : {}),
            ...(skill.model !== undefined ? { model: skill.model } : {}),
            ...(skill.temperature !== undefined ? { temperature: skill.temperature } : {}),
            source: `Skill ${skill.name} (${skill.file})`,
            hint: `Set provider in ${skill.file} to the name or type of a provider in config.toml (\`fermix providers list\`), or remove it to use the primary; then run \`fermix skills reload\`.`,
          },
          title: `skill ${skill.name}`,
        });
      } catch (error) {
        deps.journal({ ...entry, status: 'failed', error: (error as Error).message, duration_ms: Date.now() - started });
        throw error;
      }
      const timedOut = timer.aborted && !context.signal.aborted;
      deps.journal({ ...entry, status: timedOut ? 'timeout' : result.status, iterations: result.iterations, provider: result.provider, tool_calls: result.tool_calls, error: result.error?.code ?? null, duration_ms: Date.now() - started });
      if (timedOut) {
        throw new FermixError({ code: 'timeout', message: `Skill ${skill.name} did not finish within its ${skill.timeout_seconds} s timeout.`, hint: `Give it a smaller task, or raise timeout_seconds in ${skill.file}.`, data: { skill: skill.name, timeout_seconds: skill.timeout_seconds } });
      }
      if (result.status === 'failed' && result.error) {
        throw new FermixError({ code: result.error.code, message: `Skill ${skill.name} failed: ${result.error.message}`, hint: result.error.hint, data: { skill: skill.name } });
      }
      return { ...result, skill: skill.name, depth, tools: tools.map((cap) => cap.name) };
    },
  };
}
