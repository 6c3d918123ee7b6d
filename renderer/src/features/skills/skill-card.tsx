import { sourceLabel, toolsLabel, trustLabel } from './skill-labels.js';
import type { Skill } from './store.js';

/** One skill in the list: its name, trigger, trust and tools; choosing it opens its SKILL.md. */
export function SkillCard({ skill, selected, onSelect }: { skill: Skill; selected: boolean; onSelect: () => void }) {
  return (
    <li className="skill-card" data-selected={selected || undefined}>
      <button type="button" className="skill-select" aria-pressed={selected} onClick={onSelect}>
        <span className="skill-name">{skill.name}</span>
        <span className={`skill-trust trust-${skill.trust}`}>{trustLabel(skill)}</span>
        <span className="skill-description">{skill.description}</span>
        <span className="skill-meta muted small">{sourceLabel(skill)} · {toolsLabel(skill.allowed_tools)}</span>
      </button>
    </li>
  );
}
