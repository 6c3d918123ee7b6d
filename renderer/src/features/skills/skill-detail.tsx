import type { Ref } from 'react';
import { sourceLabel, trustLabel } from './skill-labels.js';
import type { SkillView } from './store.js';

function ToolList({ tools }: { tools: string[] | null }) {
  if (tools === null) return <span>Trust default: what its trust allows</span>;
  if (tools.length === 0) return <span>None: it only reads and writes text</span>;
  return (
    <ul className="skill-tools">
      {tools.map((tool) => <li key={tool}><code>{tool}</code></li>)}
    </ul>
  );
}

/** The open skill: who it runs as, which tools it may use, its limits, and its instructions or a reference file. */
export function SkillDetail({ view, references, onOpen, ref }: { view: SkillView; references: string[]; onOpen: (file?: string) => void; ref?: Ref<HTMLElement> }) {
  const showing = view.file ?? null;
  return (
    <section className="skill-detail" aria-labelledby="skill-detail-title" ref={ref}>
      <h2 id="skill-detail-title">{view.name}</h2>
      <p>{view.description}</p>
      <dl className="skill-facts">
        <dt>Trust</dt>
        <dd><span className={`skill-trust trust-${view.trust}`}>{trustLabel(view)}</span> <span className="muted">{sourceLabel(view)}</span></dd>
        <dt>Allowed tools</dt>
        <dd><ToolList tools={view.allowed_tools} /></dd>
        {view.policy && <><dt>Policy</dt><dd>{view.policy.join(', ')}</dd></>}
        <dt>Runs as</dt>
        <dd>{view.role === 'main' ? 'The main agent' : 'A sub-agent'} · at most {view.max_iterations} steps · {view.timeout_seconds} s</dd>
      </dl>
      {references.length > 0 && (
        <nav className="skill-files" aria-label={`Files of ${view.name}`}>
          <button type="button" aria-pressed={showing === null} onClick={() => onOpen()}>SKILL.md</button>
          {references.map((file) => (
            <button key={file} type="button" aria-pressed={showing === file} onClick={() => onOpen(file)}>{file}.md</button>
          ))}
        </nav>
      )}
      {/* Focusable so a long body scrolls from the keyboard; a region so its name says which file it is. */}
      <pre className="skill-body" tabIndex={0} role="region" aria-label={showing === null ? `Instructions of ${view.name}` : `Reference ${showing}`}>{view.body}</pre>
    </section>
  );
}
