import { useId, useState } from 'react';
import type { WireError } from '../../../../main/core/errors.js';
import { FieldError } from '../../ui/field-error.js';

const NAME_CODES = new Set(['invalid_name', 'already_exists', 'invalid_skill_name']);

/**
 * skills.create from a form: the same scaffold and refusals as the skill_create tool. A refusal shows under
 * the field it is about (the name, else the button) and clears as soon as that field is edited.
 */
export function CreateSkillForm({ onCreate, onClose }: { onCreate: (name: string, description: string) => Promise<WireError | null>; onClose: () => void }) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<WireError | null>(null);
  const ids = { name: useId(), nameHelp: useId(), nameError: useId(), description: useId(), descriptionError: useId(), submitError: useId() };
  const onName = problem !== null && NAME_CODES.has(problem.code);
  const onDescription = problem !== null && !onName && problem.code === 'invalid_input' && JSON.stringify(problem.data ?? '').includes('description');
  const onSubmit = problem !== null && !onName && !onDescription;

  return (
    <form
      className="create-skill"
      aria-labelledby="create-skill-title"
      onKeyDown={(event) => { if (event.key === 'Escape') onClose(); }}
      onSubmit={(event) => {
        event.preventDefault();
        setBusy(true);
        void onCreate(name.trim(), description.trim()).then((error) => {
          setBusy(false);
          setProblem(error);
          if (!error) onClose();
        });
      }}
    >
      <h2 id="create-skill-title">New skill</h2>
      <div className="field">
        <label htmlFor={ids.name}>Name</label>
        <input
          id={ids.name}
          value={name}
          required
          maxLength={64}
          autoComplete="off"
          autoFocus
          aria-invalid={onName || undefined}
          aria-describedby={onName ? `${ids.nameError} ${ids.nameHelp}` : ids.nameHelp}
          onChange={(event) => { setName(event.target.value); if (onName) setProblem(null); }}
        />
        {onName && <FieldError id={ids.nameError} error={problem} />}
        <p id={ids.nameHelp} className="muted small">Letters, digits, _ or -; it is also the folder name under <code>skills/</code>.</p>
      </div>
      <div className="field">
        <label htmlFor={ids.description}>When to use it</label>
        <textarea
          id={ids.description}
          value={description}
          required
          rows={2}
          maxLength={1024}
          placeholder="Use to draft the Friday status report from the week's notes."
          aria-invalid={onDescription || undefined}
          aria-describedby={onDescription ? ids.descriptionError : undefined}
          onChange={(event) => { setDescription(event.target.value); if (onDescription) setProblem(null); }}
        />
        {onDescription && <FieldError id={ids.descriptionError} error={problem} />}
      </div>
      <p className="muted small">Fermix writes <code>SKILL.md</code> with no tools allowed and a starter <code>evals/evals.json</code>; fill in the steps and the tools it needs, then Reload.</p>
      <div className="form-actions">
        <button type="submit" className="primary" disabled={busy || !name.trim() || !description.trim()} aria-describedby={onSubmit ? ids.submitError : undefined}>{busy ? 'Creating…' : 'Create skill'}</button>
        <button type="button" onClick={onClose}>Cancel</button>
      </div>
      {onSubmit && <FieldError id={ids.submitError} error={problem} />}
    </form>
  );
}
