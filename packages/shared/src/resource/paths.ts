/**
 * The URLs of a resource's generic routes, derived from its API name alone: the server registers them from here
 * (apps/server/src/crud/registerResource.ts, crud/excel.ts) and the web calls them from here
 * (apps/web/src/crud/resourceClient.ts), so no screen spells a resource URL and the two sides cannot drift.
 */
export interface ResourcePaths {
  /** GET the list (page/size/sort/filters), POST a new row, PUT a changed row, DELETE an id array. */
  readonly list: string;
  /** The Fastify route of one row (`GET`, `DELETE`), parameter `:id`. */
  readonly oneRoute: string;
  /** `POST` multipart: the Excel import. */
  readonly import: string;
  /** `GET` / `POST` with the list's filters: the Excel export. */
  readonly export: string;
  /** `POST`: the Excel import template. */
  readonly template: string;
}

export function resourcePaths(name: string): ResourcePaths {
  const list = `/api/${name}`;
  return { list, oneRoute: `${list}/:id`, import: `/api/import/${name}`, export: `/api/export/${name}`, template: `/api/download/${name}` };
}

/** The URL of one row of a resource (`oneRoute` with its id). */
export function resourceRowPath(name: string, id: string | number): string {
  return `${resourcePaths(name).list}/${encodeURIComponent(String(id))}`;
}

/** The error sheet of an import (one for every resource, kept an hour for its uploader). */
export const IMPORT_ERRORS_ROUTE = '/api/import/errors/:id';
export function importErrorsPath(fileId: string): string {
  return IMPORT_ERRORS_ROUTE.replace(':id', encodeURIComponent(fileId));
}
