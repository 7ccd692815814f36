import type { FastifySchemaCompiler, FastifySerializerCompiler } from 'fastify';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { idSchema } from '@app/shared/contracts/schemas';
import { issueMessagesByField } from '@app/shared/errors/zodIssues';
import { z } from 'zod';
import { firstIssueError, validationError } from '../core/errors.ts';

/**
 * Route schemas: every route declares `schema` with zod (through fastify-type-provider-zod), and this
 * validator compiler turns a failed parse into the app's usual 400 — `{status, message, timestamp, code,
 * fieldErrors}`, each message a catalogue code (zod's own checks mapped in errors/zodIssues.ts): bodies answer
 * with field errors (code VALIDATION), query strings and path parameters with their first message.
 */
export const validatorCompiler: FastifySchemaCompiler<z.ZodType> = ({ schema, httpPart }) => {
  const validate = (data: unknown) => {
    const r = schema.safeParse(data);
    if (r.success) return { value: r.data };
    if (httpPart === 'body') return { error: validationError(issueMessagesByField(r.error, data)) };
    return { error: firstIssueError(r.error, data) };
  };
  return (data) => {
    if (!validationClock.on) return validate(data);
    const t0 = process.hrtime.bigint();
    try {
      return validate(data);
    } finally {
      validationClock.ns += Number(process.hrtime.bigint() - t0);
      validationClock.calls++;
    }
  };
};

/**
 * Time spent in route-schema validation while `on` (off by default: one boolean test per validated part).
 * bench/users-list.ts turns it on to print the validation cost per request (issue 9).
 */
export const validationClock = { on: false, ns: 0, calls: 0 };

/**
 * Response schemas whose data is built from the same definition by `rowToApi` (the generic lists and rows:
 * secret fields are already left out there, by construction). They document the answer; outside the test
 * suite they are serialised without a second check, which would cost ~10 µs per row of a list (measured with
 * bench/users-list.ts). Tests (VITEST) check every answer against its schema.
 */
const trustedResponses = new WeakSet<z.ZodType>();
export function trustedResponse<T extends z.ZodType>(schema: T): T {
  trustedResponses.add(schema);
  return schema;
}
export const isTrustedResponse = (schema: z.ZodType) => trustedResponses.has(schema);
const checkEveryResponse = !!process.env.VITEST;

/** Answers are checked against (and shaped by) their response schema, except trusted ones outside tests. */
export const serializerCompiler: FastifySerializerCompiler<z.ZodType> = (route) => {
  if (!checkEveryResponse && trustedResponses.has(route.schema)) return (data) => JSON.stringify(data);
  return zodSerializerCompiler(route);
};

/** `/:id` path parameters. */
export const idParams = z.object({ id: idSchema() });

/** The empty object some routes answer with (`{}`). */
export const emptyObject = z.object({});

export { idArrayBody, idSchema, queryId, queryText, safeText } from '@app/shared/contracts/schemas';
