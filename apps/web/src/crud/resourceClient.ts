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

/** The query-key prefix of a resource's lists (`useResourceList`); invalidating it refreshes every page and filter. */
export function resourceListKey(name: string): QueryKey {
  return ['crud', resourcePaths(name).list];
}

/** A page (or the whole tree) of a resource: `{content,totalElements}`, or a plain array from some list routes. */
export function listResource<T>(name: string, params: Record<string, unknown> = {}): Promise<T> {
  return api.get<T>(resourcePaths(name).list, params);
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

/** The Excel import URL (multipart upload with progress: crud/Excel.tsx sends it). */
export function resourceImportUrl(name: string): string {
  return resourcePaths(name).import;
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
