import { ErrorNotice } from '../../../app/error-notice.js';
import { useThread } from '../../../app/model-context.js';
import type { ThreadItem } from '../thread/thread-types.js';

/** Top of a conversation longer than one page: pages back on demand (the newest messages open first). */
export function EarlierRow({ item }: { item: Extract<ThreadItem, { kind: 'earlier' }> }) {
  const loadEarlier = useThread((state) => state.loadEarlier);
  return (
    <div className="earlier-row">
      <button type="button" className="small-button" onClick={() => void loadEarlier()} disabled={item.loading} aria-busy={item.loading}>
        {item.loading ? 'Loading earlier messages…' : 'Show earlier messages'}
      </button>
      {item.error && <ErrorNotice error={item.error} />}
    </div>
  );
}
