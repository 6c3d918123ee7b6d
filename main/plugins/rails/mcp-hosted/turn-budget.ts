/**
 * A hosted plugin's per-agent-turn budgets (reference §3.2 `budgets`: agent_turn_calls ≤100,
 * agent_turn_paginated_calls ≤ agent_turn_calls; Eden 20 and 5). Counted by the execution context's
 * turn id, so a loop in one turn cannot spend a service's rate limit or credits; a call outside an
 * agent turn (the CLI, the window's tool runner) carries no turn id and is not counted. A call is
 * "paginated" when it passes a page cursor (`cursor`): walking to the next page of a listing. The
 * refused call sends nothing. Only the most recent 64 turns are remembered (turns end; counts need
 * not outlive them).
 */
import type { ExecutionContext, ToolResult } from '../../../core/capabilities/index.js';
import { FermixError } from '../../../core/errors.js';
import type { PluginManifest } from '../../manifest.js';

const REMEMBERED_TURNS = 64;

export function createTurnBudget(manifest: PluginManifest) {
  const budgets = manifest.budgets;
  const turns = new Map<string, { calls: number; paginated: number }>();
  const exhausted = (tool: string, what: string, limit: number) => new FermixError({
    code: 'turn_budget_exhausted',
    message: `${manifest.display_name} allows ${limit} ${what} per agent turn, and this turn has used them, so ${tool} was not sent.`,
    hint: `Answer with what you have, or ask the person to send another message to continue with ${manifest.display_name}.`,
    data: { plugin: manifest.name, tool, limit },
  });
  return {
    spend(tool: string, args: Record<string, unknown>, context: ExecutionContext, run: () => Promise<ToolResult>): Promise<ToolResult> {
      if (!budgets || context.turnId === undefined) return run();
      let used = turns.get(context.turnId);
      if (!used) {
        used = { calls: 0, paginated: 0 };
        turns.set(context.turnId, used);
        if (turns.size > REMEMBERED_TURNS) turns.delete(turns.keys().next().value!);
      }
      const paginated = typeof args.cursor === 'string' && args.cursor !== '';
      if (used.calls >= budgets.agent_turn_calls) return Promise.reject(exhausted(tool, 'calls', budgets.agent_turn_calls));
      if (paginated && used.paginated >= budgets.agent_turn_paginated_calls) return Promise.reject(exhausted(tool, 'paginated calls (with a cursor)', budgets.agent_turn_paginated_calls));
      used.calls += 1;
      if (paginated) used.paginated += 1;
      return run();
    },
  };
}
