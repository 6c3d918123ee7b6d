import { ErrorNotice } from '../../app/error-notice.js';
import { useSettings } from '../../app/model-context.js';
import type { SettingsOrigin } from './store.js';

/** The daemon's answer to one control, shown right beside it (a save at the bottom is confirmed at the bottom). */
export function SaveFeedback({ origin }: { origin: SettingsOrigin | SettingsOrigin[] }) {
  const feedback = useSettings((state) => state.feedback);
  const dismiss = useSettings((state) => state.dismiss);
  const origins = Array.isArray(origin) ? origin : [origin];
  if (!feedback || !origins.includes(feedback.origin)) return null;
  if (feedback.error) return <ErrorNotice error={feedback.error} onDismiss={dismiss} />;
  return <p className="saved-message settings-saved" role="status">{feedback.message}</p>;
}
