import type { FastifyReply } from 'fastify';
import type { Readable } from 'node:stream';

/**
 * Hand a stream to Fastify as the reply body with an 'error' listener attached at once.
 *
 * Fastify listens to a stream body only once the onSend hooks have run, several ticks after `reply.send`. A
 * stream that fails in between (a stored file that cannot be read, a zip or workbook whose producer failed)
 * would emit 'error' with nobody listening, and Node ends the process on that (finding M1). With this listener
 * the failure is logged and still reaches Fastify's own handling when it attaches (Node reports an already
 * failed stream to a late listener): a JSON error while no header was sent, a cut connection after.
 */
export function sendStream(reply: FastifyReply, body: Readable, what: string): FastifyReply {
  body.on('error', (err) => reply.log.warn({ err }, `${what}: stream failed`));
  return reply.send(body);
}
