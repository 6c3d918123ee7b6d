import type { CallContext, Handlers } from '../api/dispatcher.js';
import { FermixError, isFermixError } from '../core/errors.js';
import type { MemoryService } from '../memory/service.js';
import type { LoadedSkill } from '../skills/loader.js';
import type { SkillService } from '../skills/service.js';

type MemorySkillHandlers = Pick<Handlers, 'memory.list' | 'memory.search' | 'memory.forget' | 'skills.list' | 'skills.view' | 'skills.reload' | 'skills.create'>;

function summary(skill: LoadedSkill) {
  return { name: skill.name, description: skill.description, trust: skill.trust, source: skill.source, plugin: skill.plugin ?? null, allowed_tools: skill.allowed_tools ?? null, role: skill.role };
}

/**
 * The skill service's hints are written for the agent (skill_list, skill_reload); through the API the
 * caller is a person: in the window (which lists skills and has a Reload button) or at the CLI.
 */
function hintForPerson(error: unknown, context: CallContext): unknown {
  if (!isFermixError(error) || (error.code !== 'already_exists' && error.code !== 'unknown_skill')) return error;
  const inWindow = context.transport === 'http' || context.transport === 'ipc';
  const hints = error.code === 'already_exists'
    ? { window: 'Choose another name, or select the existing skill in the list, edit its SKILL.md and press Reload.', cli: 'Choose another name, or edit the existing SKILL.md and run `fermix skills reload`.' }
    : { window: 'Pick a skill from the list on the Skills screen; a skill you just added appears after Reload.', cli: 'List skills with `fermix skills list`; after adding one, run `fermix skills reload`.' };
  return new FermixError({ code: error.code, message: error.message, hint: inWindow ? hints.window : hints.cli, data: error.data, cause: error });
}

/**
 * memory.* and skills.* for `fermix memory` / `fermix skills` (and the window). Every transport we serve
 * is the owner's, so memory reads run at operator trust with scope all; the skill service is the same
 * snapshot skill_list/skill_view/skill_reload read.
 */
export function createMemorySkillHandlers(deps: { memory: MemoryService; skills: SkillService }): MemorySkillHandlers {
  return {
    'memory.list': (input) => ({ memories: deps.memory.list(input.limit) }),
    'memory.search': (input) => {
      try {
        const result = deps.memory.recall({ search: input.query, scope: input.scope, source: input.source }, { trust: 'operator', origin: 'cli', conversationId: input.conversation_id });
        return { memories: result.memories, history: result.history };
      } catch (error) {
        // memory_recall tells the model "nothing matched" as not_found; for the owner an empty list says it.
        if (isFermixError(error) && error.code === 'not_found') return { memories: [], history: [] };
        throw error;
      }
    },
    'memory.forget': (input) => ({ removed: deps.memory.forget(input.target) }),
    'skills.list': () => ({ skills: deps.skills.list().map(summary), errors: deps.skills.errors() }),
    'skills.view': (input, context) => {
      try {
        const view = deps.skills.view(input.name, input.file);
        return { ...view, policy: view.policy ?? null, allowed_tools: view.allowed_tools ?? null };
      } catch (error) {
        throw hintForPerson(error, context);
      }
    },
    'skills.reload': () => deps.skills.reload(),
    'skills.create': (input, context) => {
      try {
        const created = deps.skills.create(input.name, input.description);
        return { ...created, reload: deps.skills.reload() };
      } catch (error) {
        throw hintForPerson(error, context);
      }
    },
  };
}
