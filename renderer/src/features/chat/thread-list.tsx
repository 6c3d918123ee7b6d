import { useLayoutEffect, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';

export interface ThreadListProps<T> {
  items: readonly T[];
  itemKey(item: T): string;
  renderItem(item: T): ReactNode;
  /** A first guess for rows not measured yet; @tanstack/react-virtual replaces it with the measured height. */
  estimateHeight(item: T): number;
  label: string;
  /** Changing it (another conversation) scrolls to the bottom again. */
  resetKey?: string;
  className?: string;
}

/** Rows rendered beyond the visible area on each side, so fast scrolling does not show blank space. */
const OVERSCAN_ROWS = 8;
/** Without layout (no viewport height yet, or jsdom), the newest rows are rendered. */
const FALLBACK_ROWS = 60;
/** Within this distance of the bottom the person counts as "at the bottom" and new output is followed. */
const BOTTOM_SLACK_PX = 48;
/** The list's own top and bottom padding (styles.css gives .virtual-list 1rem / 1.5rem; it is set to 0 inline). */
const PADDING_START_PX = 16;
const PADDING_END_PX = 24;

/**
 * The conversation as a windowed list (@tanstack/react-virtual): only rows near the viewport are in the
 * DOM, padding stands in for the rest. Every rendered row is measured (ResizeObserver), so streaming text
 * or an expanded tool card moves what follows, and a row above the viewport that changes size shifts the
 * scroll position by the same amount (the library's default), so what the person reads stays put. The
 * view follows new output while the person is at the bottom, and stays where they scrolled to otherwise.
 */
export function ThreadList<T>({ items, itemKey, renderItem, estimateHeight, label, resetKey, className }: ThreadListProps<T>) {
  const scroller = useRef<HTMLDivElement | null>(null);
  const atBottom = useRef(true);
  const pinning = useRef(false);
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scroller.current,
    estimateSize: (index) => estimateHeight(items[index]),
    getItemKey: (index) => itemKey(items[index]),
    overscan: OVERSCAN_ROWS,
    paddingStart: PADDING_START_PX,
    paddingEnd: PADDING_END_PX,
  });

  useLayoutEffect(() => {
    atBottom.current = true;
  }, [resetKey]);

  // Rows added above (an earlier page of the conversation): keep the rows the person was looking at in
  // place. The first rows before the change are looked up again; the first one that moved gives the shift.
  const headRows = useRef<{ key: string; start: number }[]>([]);
  useLayoutEffect(() => {
    const previous = headRows.current;
    const starts = virtualizer.measurementsCache;
    headRows.current = items.slice(0, 3).map((item, index) => ({ key: itemKey(item), start: starts[index]?.start ?? 0 }));
    const element = scroller.current;
    if (!element || atBottom.current || previous.length === 0) return;
    const positions = new Map(items.map((item, index) => [itemKey(item), index]));
    for (const row of previous) {
      const index = positions.get(row.key);
      if (index === undefined) continue;
      const shift = (starts[index]?.start ?? row.start) - row.start;
      if (shift > 0) element.scrollTop += shift;
      if (shift !== 0) return;
    }
    // Only a change of rows counts: height corrections are shifted by the virtualizer itself.
  }, [items]);

  const total = virtualizer.getTotalSize();
  // After every change of rows or heights: stay at the bottom if the person was there. Only the DOM is
  // touched here; the scroll event that follows lets the virtualizer pick the rows on the next frame.
  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element || !atBottom.current) return;
    const bottom = element.scrollHeight - element.clientHeight;
    if (Math.abs(element.scrollTop - bottom) > 1) {
      pinning.current = true;
      element.scrollTop = bottom;
      // Our scroll event comes before the next frame; a scroll after it is the person's. Without this a
      // pin that moved nothing (already clamped) would swallow their next scroll.
      requestAnimationFrame(() => {
        pinning.current = false;
      });
    }
  }, [items, total, resetKey]);

  // A window resize changes the viewport under the person: whoever was at the bottom stays there (the
  // scroll event a resize causes is not theirs), whoever had scrolled up keeps their place.
  const viewportSize = useRef<{ width: number; height: number } | null>(null);
  const pinToBottom = () => {
    const element = scroller.current;
    if (!element) return;
    const bottom = element.scrollHeight - element.clientHeight;
    if (Math.abs(element.scrollTop - bottom) <= 1) return;
    pinning.current = true;
    element.scrollTop = bottom;
    requestAnimationFrame(() => {
      pinning.current = false;
    });
  };
  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element || typeof ResizeObserver !== 'function') return;
    viewportSize.current = { width: element.clientWidth, height: element.clientHeight };
    const observer = new ResizeObserver(() => {
      viewportSize.current = { width: element.clientWidth, height: element.clientHeight };
      if (atBottom.current) pinToBottom();
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const onScroll = () => {
    const element = scroller.current;
    if (!element) return;
    const size = viewportSize.current;
    const resized = size !== null && (size.width !== element.clientWidth || size.height !== element.clientHeight);
    // A scroll we caused (pinning to the bottom), or one a resize caused, keeps the pin even if rows
    // below grew meanwhile.
    if (resized && atBottom.current) pinToBottom();
    else if (!pinning.current) atBottom.current = element.scrollHeight - element.scrollTop - element.clientHeight < BOTTOM_SLACK_PX;
    pinning.current = false;
  };

  // Home / End go to the first / newest message. The browser's own (smooth) scroll over a long thread is
  // cut short as rows measured on the way shift the position; the virtualizer's scrollToIndex settles on
  // the row itself once its height is known.
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.target !== scroller.current || items.length === 0 || (event.key !== 'Home' && event.key !== 'End')) return;
    event.preventDefault();
    atBottom.current = event.key === 'End';
    virtualizer.scrollToIndex(event.key === 'Home' ? 0 : items.length - 1, { align: event.key === 'Home' ? 'start' : 'end' });
  };

  const laidOut = (virtualizer.scrollRect?.height ?? 0) > 0;
  const rows = laidOut
    ? virtualizer.getVirtualItems().map((row) => ({ index: row.index, start: row.start, end: row.end }))
    : items.slice(Math.max(0, items.length - FALLBACK_ROWS)).map((_, offset) => ({ index: Math.max(0, items.length - FALLBACK_ROWS) + offset, start: 0, end: 0 }));
  const paddingTop = laidOut && rows.length ? rows[0].start : 0;
  const paddingBottom = laidOut && rows.length ? Math.max(0, total - rows[rows.length - 1].end) : 0;

  return (
    <div ref={scroller} className={`virtual-list ${className ?? ''}`} onScroll={onScroll} onKeyDown={onKeyDown} tabIndex={0} role="log" aria-label={label} aria-live="off" style={{ paddingTop: 0, paddingBottom: 0 }}>
      <div role="list" aria-label={label} style={{ paddingTop, paddingBottom }}>
        {rows.map((row) => {
          const item = items[row.index];
          return (
            <div key={itemKey(item)} ref={virtualizer.measureElement} data-index={row.index} role="listitem" aria-posinset={row.index + 1} aria-setsize={items.length} className="virtual-row">
              {renderItem(item)}
            </div>
          );
        })}
      </div>
    </div>
  );
}
