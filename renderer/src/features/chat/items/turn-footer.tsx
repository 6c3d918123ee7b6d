import { ErrorNotice } from '../../../app/error-notice.js';
import { useThread } from '../../../app/model-context.js';
import { usageWords, type DisplayItem } from '../thread/display.js';

const STATUS_TEXT: Record<string, string> = {
  completed: '',
  partial: 'Partial answer',
  failed: 'Failed',
  stopped: 'Stopped',
  interrupted: 'Interrupted',
};

/** Tokens and cost only when known (no "0 in · 0 out", "$0" or "cost unknown"); the last one adds the total. */
export function TurnFooter({ item }: { item: Extract<DisplayItem, { kind: 'turn-end' }> }) {
  const continueTurn = useThread((state) => state.continueTurn);
  const label = STATUS_TEXT[item.status];
  const words = usageWords(item.usage, item.costUsd);
  const total = item.totals ? usageWords({ input_tokens: item.totals.inputTokens, output_tokens: item.totals.outputTokens }, item.totals.costUsd) : [];
  const model = item.provider ? `${item.provider}${item.model ? ` · ${item.model}` : ''}` : null;
  return (
    <div className="turn-end">
      {item.error && item.error.code !== 'cancelled' && <ErrorNotice error={item.error} />}
      <p className="turn-meta" aria-label="Turn usage">
        {label && <span className={`badge badge-${item.status}`}>{label}</span>}
        {words.map((word) => <span key={word}>{word}</span>)}
        {model && <span>{model}</span>}
        {item.continuable && (
          <button type="button" className="small-button" onClick={() => void continueTurn()}>
            Continue
          </button>
        )}
      </p>
      {total.length > 0 && (
        <p className="turn-meta conversation-total" aria-label="Conversation total">
          <span>This conversation: {total.join(' · ')}</span>
        </p>
      )}
    </div>
  );
}
