/**
 * `dist/page-chunks.json`: which built files each page of the web app needs beyond the entry's own. The web
 * build writes it (apps/web/build/pageChunks.ts); the server reads it to hint those files in index.html
 * (apps/server/src/webApp.ts). Paths are relative to dist ('assets/UserPage-abc.js').
 */

export const PAGE_CHUNKS_FILE = 'page-chunks.json';

export interface PageFiles {
  js: string[];
  css: string[];
}

export interface PageChunks {
  /** the layout after login (and the small module that preloads the screen at the URL) */
  layout: PageFiles;
  /** the generic resource page behind every `crud/<resource>` menu */
  crud: PageFiles;
  /** the login page, hinted on /login (absent in older builds) */
  login?: PageFiles;
  /** by menu component key */
  screens: Record<string, PageFiles>;
  /** by language: its texts and antd/dayjs locales, which every page waits for before it renders (absent in older builds) */
  locales?: Record<string, PageFiles>;
}
