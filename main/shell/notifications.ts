// Native notification when the agent parks on an approval and the window is not in front,
// so a waiting run is not silently stuck behind other windows.
import { Notification } from 'electron';

export interface ApprovalWaiting {
  id: string;
  capability: string;
  summary: string;
}

export interface JobRunFinished {
  job_name: string;
  status: string;
  notify: boolean;
  summary?: string | null;
}

/** A scheduled job's result landed in the Jobs conversation ([SILENT] and delivery none never notify). */
export function notifyJobFinished(run: JobRunFinished, onClick: () => void): Notification | undefined {
  if (!run.notify || !Notification.isSupported()) return undefined;
  const notification = new Notification({
    title: `Fermix job: ${run.job_name}`,
    body: run.summary ?? (run.status === 'ok' ? 'Finished; the result is in the Jobs conversation.' : 'Failed; see the Jobs conversation.'),
    urgency: 'normal',
  });
  notification.on('click', onClick);
  notification.show();
  return notification;
}

export function notifyApprovalWaiting(approval: ApprovalWaiting, onClick: () => void): Notification | undefined {
  if (!Notification.isSupported()) return undefined;
  const notification = new Notification({
    title: 'Fermix: approval waiting',
    body: `${approval.capability}: ${approval.summary}`,
    urgency: 'normal',
  });
  notification.on('click', onClick);
  notification.show();
  return notification;
}
