/**
 * Small fuzzy matcher for the menu search (spec §9: threshold 0.4, weights title 0.7 and path 0.3).
 * A substring scores close to 1, a scattered subsequence less the more spread out it is.
 */
export function fuzzyScore(query: string, text: string): number {
  const q = query.trim().toLowerCase();
  const s = text.toLowerCase();
  if (!q) return 0;
  if (!s) return 0;
  const idx = s.indexOf(q);
  if (idx >= 0) return 1 - Math.min(idx / Math.max(s.length, 1), 1) * 0.1;
  let pos = 0;
  let first = -1;
  for (const ch of q) {
    const found = s.indexOf(ch, pos);
    if (found < 0) return 0;
    if (first < 0) first = found;
    pos = found + 1;
  }
  const span = pos - first;
  return 0.8 * (q.length / span);
}

export interface SearchTarget {
  titles: string[];
  path: string;
}

export const FUZZY_THRESHOLD = 0.4;

/** Weighted score of a menu entry; 0 when it does not match. */
export function scoreEntry(query: string, target: SearchTarget): number {
  const title = Math.max(0, ...target.titles.map((t) => fuzzyScore(query, t)));
  const path = fuzzyScore(query, target.path);
  if (Math.max(title, path) < 1 - FUZZY_THRESHOLD) return 0;
  return 0.7 * title + 0.3 * path;
}
