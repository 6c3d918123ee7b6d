import { useEffect, useRef, useState } from 'react';
import { useStore } from 'zustand';
import { ErrorNotice } from '../../app/error-notice.js';
import { useApiClient } from '../../app/model-context.js';
import { CreateSkillForm } from './create-skill-form.js';
import { SkillCard } from './skill-card.js';
import { SkillDetail } from './skill-detail.js';
import { createSkillsStore, type ReloadReport } from './store.js';
import './skills.css';

function reportText(report: ReloadReport): string {
  const parts = [`${report.added.length} added`, `${report.removed.length} removed`, `${report.changed.length} changed`];
  return `Reloaded ${report.count} skill${report.count === 1 ? '' : 's'}: ${parts.join(', ')}${report.errors.length ? `, ${report.errors.length} skipped` : ''}.`;
}

/** Skills: reusable instructions the agent can run (skill_run); list, read, reload from disk, and scaffold a new one. */
export function SkillsScreen() {
  const client = useApiClient();
  const [store] = useState(() => createSkillsStore(client));
  const skills = useStore(store, (state) => state.skills);
  const loadErrors = useStore(store, (state) => state.loadErrors);
  const selected = useStore(store, (state) => state.selected);
  const view = useStore(store, (state) => state.view);
  const references = useStore(store, (state) => state.references);
  const report = useStore(store, (state) => state.report);
  const loading = useStore(store, (state) => state.loading);
  const reloading = useStore(store, (state) => state.reloading);
  const error = useStore(store, (state) => state.error);
  const { load, select, reload, create } = store.getState();
  const [creating, setCreating] = useState(false);
  const detail = useRef<HTMLElement>(null);
  const chosen = useRef(false);
  const open = (name: string) => {
    chosen.current = true;
    void select(name);
  };
  // In one column the skill opens below the list: bring it into view once it is shown (only when the person chose it).
  useEffect(() => {
    if (!chosen.current || !view) return;
    chosen.current = false;
    detail.current?.scrollIntoView?.({ block: 'nearest' });
  }, [view]);

  useEffect(() => {
    void load();
  }, [load]);

  return (
    <section className="screen skills-screen" aria-labelledby="skills-title">
      <div className="skills-header">
        <h1 id="skills-title">Skills</h1>
        <div className="skills-actions">
          <button type="button" onClick={() => setCreating(true)} disabled={creating} aria-expanded={creating}>New skill</button>
          <button type="button" onClick={() => void reload()} disabled={reloading}>{reloading ? 'Reloading…' : 'Reload'}</button>
        </div>
      </div>
      <p className="muted">
        Step-by-step instructions the agent follows for a kind of task, with only the tools the skill allows. Skills bundled with Fermix and those in your <code>skills/</code> folder run as the owner (operator); skills shipped by plugins run as a guest.
      </p>
      {creating && <CreateSkillForm onCreate={create} onClose={() => setCreating(false)} />}
      <p className="muted small" role="status">{report ? reportText(report) : ''}</p>
      {loadErrors.length > 0 && (
        <div className="skill-load-errors">
          <h2>Skipped skill files</h2>
          <ul>{loadErrors.map((line) => <li key={line}><code>{line}</code></li>)}</ul>
          <p className="muted small">Fix the file, then Reload. A broken SKILL.md never stops the others from loading.</p>
        </div>
      )}
      {error && <ErrorNotice error={error} onDismiss={() => store.setState({ error: null })} />}
      {skills.length === 0 ? (
        !loading && (
          <p className="empty">
            No skills are loaded. Choose <strong>New skill</strong> to write one, or put a folder with a <code>SKILL.md</code> in your <code>skills/</code> folder and choose Reload.
          </p>
        )
      ) : (
        <div className="skills-layout">
          <ul className="skill-list" aria-label="Skills">
            {skills.map((skill) => (
              <SkillCard key={skill.name} skill={skill} selected={skill.name === selected} onSelect={() => open(skill.name)} />
            ))}
          </ul>
          {view && view.name === selected && <SkillDetail ref={detail} view={view} references={references} onOpen={(file) => void select(view.name, file)} />}
        </div>
      )}
    </section>
  );
}
