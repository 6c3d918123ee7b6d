import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';

export interface VirtualListProps<T> {
  items: readonly T[];
  itemKey(item: T): string;
  renderItem(item: T): ReactNode;
  /** A first guess for rows not measured yet; real heights replace it once rendered. */
  estimateHeight(item: T): number;
  label: string;
  /** Keep the view pinned to the newest row while the person is at the bottom (chat). */
  followOutput?: boolean;
  /** Changing it (another conversation) scrolls to the bottom again. */
  resetKey?: string;
  className?: string;
}

/** Rows rendered beyond the visible area, in pixels, so fast scrolling does not show blank space. */
const OVERSCAN_PX = 800;
/** Without layout (no viewport height yet, or jsdom), the newest rows are rendered. */
const FALLBACK_ROWS = 60;
const BOTTOM_SLACK_PX = 48;

/**
 * A windowed list for long conversations: only rows near the viewport are in the DOM, with padding
 * standing in for the rest. Rows have any height; each is measured once rendered (ResizeObserver), so
 * streaming text or an expanded tool card moves what follows. Rows above the viewport that change size
 * shift the scroll position by the same amount, so what the person reads stays put.
 */
export function VirtualList<T>({ items, itemKey, renderItem, estimateHeight, label, followOutput = false, resetKey, className }: VirtualListProps<T>) {
  const scroller = useRef<HTMLDivElement | null>(null);
  const heights = useRef(new Map<string, number>());
  const atBottom = useRef(true);
  const pinning = useRef(false);
  const firstIndex = useRef(0);
  const keyIndex = useRef(new Map<string, number>());
  const [measureVersion, setMeasureVersion] = useState(0);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewport, setViewport] = useState(0);

  const offsets = useMemo(() => {
    const result = new Float64Array(items.length + 1);
    const index = new Map<string, number>();
    items.forEach((item, position) => {
      const key = itemKey(item);
      index.set(key, position);
      result[position + 1] = result[position] + (heights.current.get(key) ?? estimateHeight(item));
    });
    keyIndex.current = index;
    return result;
    // measureVersion is a dependency on purpose: the heights map is a ref and changes under it.
  }, [items, itemKey, estimateHeight, measureVersion]);

  const total = offsets[items.length];
  let start: number;
  let end: number;
  if (viewport <= 0) {
    start = Math.max(0, items.length - FALLBACK_ROWS);
    end = items.length;
  } else {
    start = Math.max(0, upperBound(offsets, scrollTop - OVERSCAN_PX) - 1);
    end = Math.min(items.length, upperBound(offsets, scrollTop + viewport + OVERSCAN_PX));
  }
  firstIndex.current = start;

  const observer = useMemo(() => {
    if (typeof ResizeObserver === 'undefined') return null;
    return new ResizeObserver((entries) => {
      let changed = false;
      let shiftAbove = 0;
      for (const entry of entries) {
        const key = (entry.target as HTMLElement).dataset.rowKey;
        if (!key) continue;
        const height = Math.round((entry.target as HTMLElement).offsetHeight);
        const before = heights.current.get(key);
        if (height === before || height === 0) continue;
        heights.current.set(key, height);
        changed = true;
        const position = keyIndex.current.get(key);
        if (before !== undefined && position !== undefined && position < firstIndex.current) shiftAbove += height - before;
      }
      if (!changed) return;
      const element = scroller.current;
      if (element && shiftAbove !== 0 && !atBottom.current) element.scrollTop += shiftAbove;
      setMeasureVersion((version) => version + 1);
    });
  }, []);
  useEffect(() => () => observer?.disconnect(), [observer]);

  const rowRef = useCallback(
    (element: HTMLDivElement | null) => {
      if (element && observer) observer.observe(element);
    },
    [observer],
  );

  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const resize = () => setViewport(element.clientHeight);
    resize();
    if (typeof ResizeObserver === 'undefined') return;
    const watch = new ResizeObserver(resize);
    watch.observe(element);
    return () => watch.disconnect();
  }, []);

  useLayoutEffect(() => {
    atBottom.current = true;
  }, [resetKey]);

  // Rows added above (an earlier page of a conversation): keep the rows the person was looking at in place.
  // The first rows before the change are looked up again; the first one that moved down gives the shift.
  const headRows = useRef<{ key: string; offset: number }[]>([]);
  useLayoutEffect(() => {
    const previous = headRows.current;
    headRows.current = items.slice(0, 3).map((item, position) => ({ key: itemKey(item), offset: offsets[position] }));
    const element = scroller.current;
    if (!element || atBottom.current) return;
    for (const row of previous) {
      const position = keyIndex.current.get(row.key);
      if (position === undefined) continue;
      const shift = offsets[position] - row.offset;
      if (shift > 0) element.scrollTop += shift;
      if (shift !== 0) return;
    }
    // Only a change of rows counts: height corrections are shifted by the ResizeObserver above.
  }, [items]);

  // After every change of rows or heights: stay at the bottom if the person was there. Only the DOM is
  // touched here; the scroll event that follows updates the state on the next frame. Setting state right
  // here would loop synchronously while freshly measured rows keep changing the height.
  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element || !followOutput || !atBottom.current) return;
    const bottom = element.scrollHeight - element.clientHeight;
    if (Math.abs(element.scrollTop - bottom) > 1) {
      pinning.current = true;
      element.scrollTop = bottom;
    }
  }, [items, measureVersion, followOutput, resetKey, viewport]);

  const onScroll = () => {
    const element = scroller.current;
    if (!element) return;
    // A scroll we caused (pinning to the bottom) keeps the pin even if rows below grew meanwhile.
    if (!pinning.current) atBottom.current = element.scrollHeight - element.scrollTop - element.clientHeight < BOTTOM_SLACK_PX;
    pinning.current = false;
    setScrollTop(element.scrollTop);
  };

  return (
    <div ref={scroller} className={`virtual-list ${className ?? ''}`} onScroll={onScroll} tabIndex={0} role="log" aria-label={label} aria-live="off">
      <div role="list" aria-label={label} style={{ paddingTop: offsets[start], paddingBottom: Math.max(0, total - offsets[end]) }}>
        {items.slice(start, end).map((item, index) => {
          const key = itemKey(item);
          return (
            <div key={key} ref={rowRef} data-row-key={key} role="listitem" aria-posinset={start + index + 1} aria-setsize={items.length} className="virtual-row">
              {renderItem(item)}
            </div>
          );
        })}
      </div>
    </div>
  );
}

/** First index whose offset is greater than value. */
function upperBound(offsets: Float64Array, value: number): number {
  let low = 0;
  let high = offsets.length - 1;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (offsets[middle] <= value) low = middle + 1;
    else high = middle;
  }
  return low;
}
