import type { Skill } from './store.js';

/** Trust comes from where the skill was found, never from the skill itself (decision 0022). */
export function trustLabel(skill: Pick<Skill, 'trust'>): string {
  return skill.trust === 'operator' ? 'Operator' : 'Guest';
}

export function sourceLabel(skill: Pick<Skill, 'source' | 'plugin'>): string {
  if (skill.source === 'bundled') return 'Bundled with Fermix';
  if (skill.source === 'local') return 'Your skills folder';
  return `Plugin ${skill.plugin ?? ''}`.trim();
}

/** allowed_tools is three-state: absent = the trust's default, [] = none, a list = exactly those (still under policy). */
export function toolsLabel(tools: string[] | null): string {
  if (tools === null) return 'Trust default';
  if (tools.length === 0) return 'No tools';
  return `${tools.length} tool${tools.length === 1 ? '' : 's'}`;
}
