/**
 * The OpenAPI document the server builds (GET /v3/api-docs), reduced to what the 接口文档 screen shows: operations
 * grouped by tag in the document's tag order (the server orders them as the menu, U25), each with its parameters
 * and body fields.
 */

import type { OpenApiDoc, OpenApiOperation, OpenApiSchema as Schema } from '@app/shared/contracts/apiDocs';

export type { OpenApiDoc, OpenApiOperation };

export interface ApiField {
  name: string;
  /** path, query, header, cookie, or body */
  in: string;
  required: boolean;
  type: string;
  description: string;
}

export interface ApiOperation {
  key: string;
  method: string;
  path: string;
  summary: string;
  description: string;
  fields: ApiField[];
  /** the body's media type when it is not JSON (multipart uploads) */
  bodyType?: string;
}

export interface ApiGroup {
  tag: string;
  operations: ApiOperation[];
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** A schema's type in a few characters: string, integer, string[], a | b. */
export function typeOf(s: Schema | undefined): string {
  if (!s) return '';
  const alternatives = s.anyOf ?? s.oneOf;
  if (alternatives) return [...new Set(alternatives.map(typeOf).filter((x) => x && x !== 'null'))].join(' | ');
  const base = Array.isArray(s.type) ? s.type.filter((x) => x !== 'null').join(' | ') : (s.type ?? '');
  if (base === 'array') return `${typeOf(s.items) || 'any'}[]`;
  return s.format ? `${base} (${s.format})` : base;
}

function bodyFields(op: OpenApiOperation): { fields: ApiField[]; bodyType?: string } {
  const content = op.requestBody?.content ?? {};
  const [type, media] = Object.entries(content)[0] ?? [];
  if (!type) return { fields: [] };
  const schema = media?.schema;
  const bodyType = type.includes('json') ? undefined : type;
  if (!schema?.properties) return { fields: schema ? [{ name: '(body)', in: 'body', required: !!op.requestBody?.required, type: typeOf(schema), description: schema.description ?? '' }] : [], bodyType };
  const required = new Set(schema.required ?? []);
  const fields = Object.entries(schema.properties).map(([name, s]) => ({ name, in: 'body', required: required.has(name), type: typeOf(s), description: s.description ?? '' }));
  return { fields, bodyType };
}

/** The operations by tag, tags in the document's order (those it does not list last), filtered by a search text. */
export function groupOperations(doc: OpenApiDoc | undefined, search = '', tagLabel: (tag: string) => string = (t) => t): ApiGroup[] {
  if (!doc?.paths) return [];
  const needle = search.trim().toLowerCase();
  const groups = new Map<string, ApiOperation[]>((doc.tags ?? []).map((t) => [t.name, []]));
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = ops[method];
      if (!op) continue;
      const tag = op.tags?.[0] ?? '';
      const summary = op.summary ?? '';
      if (needle && ![path, summary, tag, tagLabel(tag), method].some((x) => x.toLowerCase().includes(needle))) continue;
      const params: ApiField[] = (op.parameters ?? []).map((p) => ({ name: p.name, in: p.in, required: !!p.required, type: typeOf(p.schema), description: p.description ?? p.schema?.description ?? '' }));
      const body = bodyFields(op);
      const list = groups.get(tag) ?? [];
      list.push({ key: `${method} ${path}`, method, path, summary, description: op.description ?? '', fields: [...params, ...body.fields], bodyType: body.bodyType });
      groups.set(tag, list);
    }
  }
  return [...groups].filter(([, operations]) => operations.length > 0).map(([tag, operations]) => ({ tag, operations }));
}
