import { closeStreamingMarkdown } from '../markdown/close-streaming.js';
import { MarkdownView } from '../markdown/markdown-view.js';
import { CopyButton } from '../actions/copy-button.js';
import { RegenerateButton } from '../actions/regenerate-button.js';
import type { DisplayItem } from '../thread/display.js';

/** The streaming cursor is drawn inline, after the last word (styles.css: .message-streaming). */
export function AssistantMessage({ item }: { item: Extract<DisplayItem, { kind: 'assistant' }> }) {
  return (
    <article className={item.streaming ? 'message message-assistant message-streaming' : 'message message-assistant'} aria-label="Fermix" aria-busy={item.streaming || undefined}>
      <MarkdownView text={item.streaming ? closeStreamingMarkdown(item.text) : item.text} />
      {!item.streaming && item.actions && item.text.trim() && (
        <div className="message-actions" role="group" aria-label="Answer actions">
          <CopyButton text={item.text} what="the answer" />
          {item.regenerable && <RegenerateButton turnId={item.turnId} />}
        </div>
      )}
    </article>
  );
}
