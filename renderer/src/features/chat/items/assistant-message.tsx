import { MarkdownView } from '../markdown/markdown-view.js';
import type { ThreadItem } from '../thread/thread-types.js';

export function AssistantMessage({ item }: { item: Extract<ThreadItem, { kind: 'assistant' }> }) {
  return (
    <article className="message message-assistant" aria-label="Fermix" aria-busy={item.streaming || undefined}>
      <MarkdownView text={item.text} />
      {item.streaming && <span className="caret" aria-hidden="true" />}
    </article>
  );
}
