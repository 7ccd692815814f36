import { z } from 'zod';
import { defineContract } from './contract.ts';

/**
 * The API documentation's JSON (spec §2 "API-docs frame"): the OpenAPI 3 document @fastify/swagger builds from every
 * route, read by the 接口文档 screen. The server serves it itself (crud/apiDocs.ts, from this contract's path and
 * codes, hidden from the document it describes); its shape is the types below, reduced to what the screen reads.
 */

export type OpenApiSchema = {
  type?: string | string[];
  format?: string;
  description?: string;
  enum?: unknown[];
  items?: OpenApiSchema;
  properties?: Record<string, OpenApiSchema>;
  required?: string[];
  anyOf?: OpenApiSchema[];
  oneOf?: OpenApiSchema[];
};

export interface OpenApiOperation {
  tags?: string[];
  summary?: string;
  description?: string;
  parameters?: { name: string; in: string; required?: boolean; description?: string; schema?: OpenApiSchema }[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: OpenApiSchema }> };
}

export interface OpenApiDoc {
  info?: { title?: string; version?: string; description?: string };
  tags?: { name: string }[];
  paths?: Record<string, Record<string, OpenApiOperation>>;
}

/** Where the server serves its local Swagger UI (no CDN), which the 接口文档 screen frames. */
export const API_DOCS_UI_PATH = '/api-docs/ui';

/** The codes that open the documentation (group API_DOCS of permissions.ts); ADMIN always passes. */
export const API_DOCS_CODES = ['API_DOCS_ALL', 'API_DOCS_SELECT'] as const;

export const apiDocument = defineContract({
  method: 'GET',
  path: '/v3/api-docs',
  auth: API_DOCS_CODES,
  summary: '接口文档',
  tags: ['接口文档'],
  log: '',
  // a document the library generates: typed for the reader, not checked field by field
  response: z.custom<OpenApiDoc>((v) => typeof v === 'object' && v !== null && !Array.isArray(v)),
});
