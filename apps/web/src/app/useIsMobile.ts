import { useSyncExternalStore } from 'react';

/** Spec §9: the mobile layout starts below 992 px. */
export const MOBILE_QUERY = '(max-width: 991.98px)';

function subscribe(cb: () => void): () => void {
  const mq = window.matchMedia(MOBILE_QUERY);
  mq.addEventListener?.('change', cb);
  return () => mq.removeEventListener?.('change', cb);
}

/** True below 992 px wide. */
export function useIsMobile(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(MOBILE_QUERY).matches,
    () => false,
  );
}
