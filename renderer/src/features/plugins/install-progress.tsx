import type { InstallProgress } from './store.js';

const PHASES: Record<InstallProgress['phase'], string> = {
  download: 'Downloading',
  verify: 'Verifying the signature',
  extract: 'Unpacking',
  activate: 'Activating',
  done: 'Installed',
};

/** The install's phases as one bar: download fills it by bytes, the later phases finish it. */
export function InstallProgressBar({ name, progress }: { name: string; progress: InstallProgress | undefined }) {
  const phase = progress?.phase ?? 'download';
  const share = progress && progress.total > 0 ? Math.min(1, progress.bytes / progress.total) : 0;
  const percent = Math.round(phase === 'download' ? share * 70 : phase === 'verify' ? 80 : phase === 'extract' ? 90 : 100);
  return (
    <div className="install-progress">
      <progress max={100} value={percent} aria-label={`Installing ${name}`} />
      <span className="muted small" role="status">{PHASES[phase]}… {percent}%</span>
    </div>
  );
}
