import { createRequire } from 'node:module';

const requireHere = createRequire(import.meta.url);

/**
 * A CommonJS package required the first time a feature needs it, not when the server starts (issue 27: idle memory).
 * The captcha font renderer, the HTML sanitiser, the zip writer, the XML parser and the client-database drivers each
 * cost 1-3 MB of heap plus their parsed code, and most servers never use some of them; `optional-packages.test.ts`
 * checks that starting the server loads none. Only for CommonJS packages (Node 20 cannot require an ES module).
 */
export function onFirstUse<T>(id: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= requireHere(id) as T);
}
