import { useSyncExternalStore } from 'react';

/** True while the media query matches (false where matchMedia does not exist, as in jsdom). */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (notify) => {
      if (typeof matchMedia !== 'function') return () => {};
      const list = matchMedia(query);
      list.addEventListener('change', notify);
      return () => list.removeEventListener('change', notify);
    },
    () => typeof matchMedia === 'function' && matchMedia(query).matches,
    () => false,
  );
}

/** The single-column layout: the conversation list becomes a drawer. Keep in step with styles.css. */
export const NARROW = '(max-width: 899px)';
