// Native notification when the agent parks on an approval and the window is not in front,
// so a waiting run is not silently stuck behind other windows.
import { Notification } from 'electron';

export interface ApprovalWaiting {
  id: string;
  capability: string;
  summary: string;
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
