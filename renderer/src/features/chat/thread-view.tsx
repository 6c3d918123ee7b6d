import { useMemo } from 'react';
import { ApprovalCard } from './items/approval-card.js';
import { AssistantMessage } from './items/assistant-message.js';
import { DirectoryCard } from './items/directory-card.js';
import { CompactionMarker } from './items/compaction-marker.js';
import { EarlierRow } from './items/earlier-row.js';
import { HoldBanner, ThinkingRow } from './items/live-rows.js';
import { AttachmentRow, NoticeRow, WarningRow } from './items/small-rows.js';
import { ToolCallCard } from './items/tool-call-card.js';
import { TurnFooter } from './items/turn-footer.js';
import { UserMessage } from './items/user-message.js';
import { WorkerCards } from './items/worker-cards.js';
import { ThreadList } from './thread-list.js';
import { displayItems, type DisplayItem } from './thread/display.js';
import type { Thread, ThreadItem } from './thread/thread-types.js';

const itemKey = (item: DisplayItem) => item.key;

/** Guesses before measuring; close guesses keep the scrollbar steady in long conversations. */
function estimateHeight(item: DisplayItem): number {
  switch (item.kind) {
    case 'user':
      return 80 + Math.floor((item.text?.length ?? 0) / 90) * 22;
    case 'assistant':
      return 70 + Math.ceil(item.text.length / 100) * 22 + (item.text.match(/\n/g)?.length ?? 0) * 6;
    case 'tool':
      return item.images.length ? 360 : item.approval && (item.approval.state === 'pending' || item.approval.state === 'answering') ? 260 : 48;
    case 'approval':
      return item.state === 'pending' || item.state === 'answering' ? 260 : 48;
    case 'directory':
      return 200;
    case 'turn-end':
      return item.error ? 110 : 36;
    case 'hold':
      return 90;
    default:
      return 48;
  }
}

function renderItem(item: DisplayItem) {
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
    case 'thinking':
      return <ThinkingRow />;
    case 'hold':
      return <HoldBanner item={item} />;
    case 'workers':
      return <WorkerCards item={item} />;
  }
}

/** `thread` null: the notices said while no conversation is open. */
export function ThreadView({ items, thread, conversationId }: { items: readonly ThreadItem[]; thread: Thread | null; conversationId: string }) {
  const shown = useMemo(() => displayItems(thread ?? { items: [...items], turns: {}, hold: 'running' }), [thread, items]);
  return (
    <ThreadList
      items={shown}
      itemKey={itemKey}
      renderItem={renderItem}
      estimateHeight={estimateHeight}
      label="Messages"
      resetKey={conversationId}
      className="thread"
    />
  );
}
