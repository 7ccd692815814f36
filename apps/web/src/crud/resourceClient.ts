import type { ResourceDef, RowOf } from '@app/shared/resource';
import type { ListPage, TreeRowOf } from '@app/shared/resource/listPage';
import { importErrorsPath, resourcePaths, resourceRowPath } from '@app/shared/resource/paths';
import type { QueryKey } from '@tanstack/react-query';
import { api, downloadBlob } from '../app/request';

/**
 * The web's client of the generic resource routes (issue 21): every URL of a resource comes from `resourcePaths`
 * of the shared package, the function the server registers those routes with (registerResource, the Excel
 * routes), so no screen writes a resource URL by hand. Hand-written routes go through app/contractClient.ts.
 * A screen whose list or writes live at a contract's path passes that path (`contract.path`) where a call takes
 * `url`; the default is always the resource's own.
 */
export { resourcePaths };
export type { ListPage, RowOf, TreeRowOf };

/** The body of a resource's PUT: its id and the fields it changes, typed by the definition (a renamed field fails tsc). */
export type RowUpdateOf<D extends ResourceDef> = { id: number } & Partial<RowOf<D>>;

/** The query-key prefix of a resource's lists (`useResourceList`); invalidating it refreshes every page and filter. */
export function resourceListKey(name: string): QueryKey {
  return ['crud', resourcePaths(name).list];
}

/** A page (or the whole tree) of a resource: `{content,totalElements}`, or a plain array from some list routes. */
export function listResource<T>(name: string, params: Record<string, unknown> = {}): Promise<T> {
  return api.get<T>(resourcePaths(name).list, params);
}

/** A page of a resource's rows, typed by its definition (routes may add computed fields beside the declared ones). */
export function listRowsOf<D extends ResourceDef>(def: D, params: Record<string, unknown> = {}): Promise<ListPage<RowOf<D>>> {
  return api.get<ListPage<RowOf<D>>>(resourcePaths(def.name).list, params);
}

/** The whole tree of a tree resource (departments, menus): no page/size, every row with its children. */
export function listTreeOf<D extends ResourceDef>(def: D, params: Record<string, unknown> = {}): Promise<ListPage<TreeRowOf<RowOf<D>>>> {
  return api.get<ListPage<TreeRowOf<RowOf<D>>>>(resourcePaths(def.name).list, params);
}

/** One row of a resource by id, typed by its definition (404 when it is gone or out of the caller's scope). */
export function readRowOf<D extends ResourceDef>(def: D, id: string | number): Promise<RowOf<D>> {
  return api.get<RowOf<D>>(resourceRowPath(def.name, id));
}

/** PUT the changed fields of one row of a resource (204; the server recalculates what depends on them). */
export function updateRowOf<D extends ResourceDef>(def: D, body: RowUpdateOf<D>): Promise<unknown> {
  return api.put(resourcePaths(def.name).list, body);
}

/** One row by id (404 when it is gone or out of the caller's scope). */
export function getResourceRow<T>(name: string, id: string | number): Promise<T> {
  return api.get<T>(resourceRowPath(name, id));
}

/** POST a new row (201 with the stored row), to the resource or to `url` (a contract's path with the same answer). */
export function createResourceRow<T>(name: string, body: unknown, url = resourcePaths(name).list): Promise<T> {
  return api.post<T>(url, body);
}

/** PUT a changed row (its `id` in the body; 204). */
export function updateResourceRow(name: string, body: unknown, url = resourcePaths(name).list): Promise<unknown> {
  return api.put(url, body);
}

/** Delete rows: one id -> DELETE <list>/<id>, several -> DELETE <list> with the id array. */
export async function deleteResourceRows(name: string, ids: readonly unknown[], url = resourcePaths(name).list): Promise<void> {
  if (ids.length === 1) await api.del(`${url}/${encodeURIComponent(String(ids[0]))}`);
  else await api.del(url, ids);
}

/**
 * The Excel import URL (multipart upload with progress: crud/Excel.tsx sends it), with the query parameters the
 * import takes (e.g. the staff import's `companyId`).
 */
export function resourceImportUrl(name: string, query: Record<string, string | number> = {}): string {
  const search = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();
  return search ? `${resourcePaths(name).import}?${search}` : resourcePaths(name).import;
}

/** The Excel export of the list's filters and sort, saved as `fileName`. */
export function exportResource(name: string, params: Record<string, unknown>, fileName: string, url = resourcePaths(name).export): Promise<void> {
  return downloadBlob(url, { params, fileName });
}

/** The Excel import template of a resource. */
export function downloadResourceTemplate(name: string, fileName: string): Promise<void> {
  return downloadBlob(resourcePaths(name).template, { method: 'POST', fileName });
}

/** The error sheet of an import (the server keeps it an hour for its uploader). */
export function downloadImportErrors(fileId: string): Promise<void> {
  return downloadBlob(importErrorsPath(fileId));
}
