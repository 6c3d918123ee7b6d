import { useThread } from '../../app/model-context.js';

/** Three things worth asking on day one; one click sends it (the conversation starts with it). */
export const STARTERS: { title: string; prompt: string }[] = [
  { title: 'Tidy a folder', prompt: 'Look at the files in my workspace and suggest how to organise them.' },
  { title: 'Explain a file', prompt: 'Pick the most recent document in my workspace and summarise it in five bullet points.' },
  { title: 'Plan my day', prompt: 'Help me plan today: ask me what I need to get done, then make a short schedule.' },
];

export function EmptyState({ draft }: { draft: boolean }) {
  const submit = useThread((state) => state.submit);
  return (
    <div className="empty-state">
      <h2>{draft ? 'What can Fermix do for you?' : 'Nothing here yet'}</h2>
      <p className="muted">Type below and press Enter. Fermix asks before it does anything that needs your approval.</p>
      {draft && (
        <ul className="starters" aria-label="Suggestions">
          {STARTERS.map((starter) => (
            <li key={starter.title}>
              <button type="button" className="starter" onClick={() => void submit(starter.prompt)}>
                <strong>{starter.title}</strong>
                <span className="muted small">{starter.prompt}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
