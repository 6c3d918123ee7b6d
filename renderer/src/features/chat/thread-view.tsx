import { VirtualList } from '../../ui/virtual-list.js';
import { ApprovalCard } from './items/approval-card.js';
import { AssistantMessage } from './items/assistant-message.js';
import { DirectoryCard } from './items/directory-card.js';
import { CompactionMarker } from './items/compaction-marker.js';
import { EarlierRow } from './items/earlier-row.js';
import { AttachmentRow, NoticeRow, TurnFooter, WarningRow } from './items/small-rows.js';
import { ToolCallCard } from './items/tool-call-card.js';
import { UserMessage } from './items/user-message.js';
import type { ThreadItem } from './thread/thread-types.js';

const itemKey = (item: ThreadItem) => item.key;

/** Guesses before measuring; close guesses keep the scrollbar steady in long conversations. */
function estimateHeight(item: ThreadItem): number {
  switch (item.kind) {
    case 'user':
      return 64 + Math.floor((item.text?.length ?? 0) / 90) * 22;
    case 'assistant':
      return 40 + Math.ceil(item.text.length / 100) * 22 + (item.text.match(/\n/g)?.length ?? 0) * 6;
    case 'tool':
      return item.images.length ? 360 : 110;
    case 'approval':
      return 220;
    case 'directory':
      return 200;
    case 'turn-end':
      return item.error ? 110 : 36;
    default:
      return 48;
  }
}

function renderItem(item: ThreadItem) {
  switch (item.kind) {
    case 'user':
      return <UserMessage item={item} />;
    case 'assistant':
      return <AssistantMessage item={item} />;
    case 'tool':
      return <ToolCallCard item={item} />;
    case 'approval':
      return <ApprovalCard item={item} />;
    case 'directory':
      return <DirectoryCard item={item} />;
    case 'attachment':
      return <AttachmentRow item={item} />;
    case 'warning':
      return <WarningRow item={item} />;
    case 'notice':
      return <NoticeRow item={item} />;
    case 'turn-end':
      return <TurnFooter item={item} />;
    case 'earlier':
      return <EarlierRow item={item} />;
    case 'compaction':
      return <CompactionMarker item={item} />;
  }
}

export function ThreadView({ items, conversationId }: { items: readonly ThreadItem[]; conversationId: string }) {
  return (
    <VirtualList
      items={items}
      itemKey={itemKey}
      renderItem={renderItem}
      estimateHeight={estimateHeight}
      label="Messages"
      followOutput
      resetKey={conversationId}
      className="thread"
    />
  );
}
