/**
 * `fermix skills list|view NAME [--file REF]|reload` (reference §2.4) — the running daemon's skill
 * snapshot: the same one skill_list, skill_view and skill_reload read. `--json` prints §2.18's envelope.
 */
import type { HomePaths } from '../../config/home.js';
import { callDaemon } from '../control-client.js';
import { printResult, UsageError, type CliIo } from '../output.js';

export const SKILLS_USAGE = `usage: fermix skills list [--json]                every loaded skill (and why a bad SKILL.md was skipped)
       fermix skills view NAME [--file REF] [--json]   its metadata and instructions, or references/REF.md
       fermix skills reload [--json]              re-scan the skill folders (no restart)
Skills live in $FERMIX_HOME/skills/<name>/SKILL.md; the agent scaffolds one with skill_create.`;

interface SkillLine { name: string; description: string; trust: string; source: string; plugin: string | null; allowed_tools: string[] | null; role: string }
interface SkillView extends SkillLine { policy: string[] | null; max_iterations: number; timeout_seconds: number; body: string; references?: string[]; file?: string }
interface Report { count: number; added: string[]; removed: string[]; changed: string[]; errors: string[] }

function oneLine(text: string, max = 80): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

export async function skillsVerb(io: CliIo, paths: HomePaths, words: string[], options: { json: boolean; file?: string }): Promise<number> {
  const [sub, name] = words;
  const print = (result: unknown, human: () => void) => printResult(io, options.json, result, human);
  switch (sub) {
    case undefined:
    case 'list': {
      const result = (await callDaemon(paths.socket, 'skills.list')) as { skills: SkillLine[]; errors: string[] };
      return print(result, () => {
        if (result.skills.length === 0) io.out('No skills are loaded. Add one under $FERMIX_HOME/skills/<name>/SKILL.md, then `fermix skills reload`.');
        const width = Math.max(4, ...result.skills.map((skill) => skill.name.length));
        for (const skill of result.skills) io.out(`${skill.name.padEnd(width)}  ${(skill.plugin ? `plugin ${skill.plugin}` : skill.source).padEnd(8)} ${oneLine(skill.description)}`);
        for (const error of result.errors) io.err(`skipped: ${error}`);
      });
    }
    case 'view': {
      if (!name) throw new UsageError(`fermix skills view needs a skill NAME (\`fermix skills list\` shows them). ${SKILLS_USAGE}`);
      const result = (await callDaemon(paths.socket, 'skills.view', { name, ...(options.file === undefined ? {} : { file: options.file }) })) as SkillView;
      return print(result, () => {
        const tools = result.allowed_tools === null ? 'trust default' : result.allowed_tools.length === 0 ? 'none' : result.allowed_tools.join(', ');
        io.out([
          `${result.name}${result.file ? ` — references/${result.file}.md` : ''}`,
          `  ${result.description}`,
          `  source ${result.plugin ? `plugin ${result.plugin}` : result.source}, trust ${result.trust}, role ${result.role}, tools: ${tools}${result.policy ? `, policy: ${result.policy.join(', ')}` : ''}`,
          `  max_iterations ${result.max_iterations}, timeout ${result.timeout_seconds} s${result.references?.length ? `, references: ${result.references.join(', ')}` : ''}`,
          '',
          result.body.trimEnd(),
        ].join('\n'));
      });
    }
    case 'reload': {
      const result = (await callDaemon(paths.socket, 'skills.reload')) as Report;
      return print(result, () => {
        const parts = [`${result.count} skill(s) loaded`, ...(['added', 'removed', 'changed'] as const).filter((key) => result[key].length > 0).map((key) => `${key}: ${result[key].join(', ')}`)];
        io.out(`${parts.join('; ')}.`);
        for (const error of result.errors) io.err(`skipped: ${error}`);
      });
    }
    default:
      throw new UsageError(`unknown skills subverb "${sub}"; use list, view or reload. ${SKILLS_USAGE}`);
  }
}
