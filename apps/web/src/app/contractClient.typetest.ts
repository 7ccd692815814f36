/**
 * Compile-time test of the shared contracts (issue 21): `tsc -p tsconfig.json` fails when a contract field renamed on
 * one side is still used under its old name on the other. Each `@ts-expect-error` below must stay an error; if a
 * change made one of them compile, tsc reports the unused directive and the build fails.
 */
import { defineContract } from '@app/shared/contracts/contract';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { routeContract } from '../../../server/src/crud/registerContract';
import { type CallInput, callContract } from './contractClient';

const renameProbe = defineContract({
  method: 'PUT',
  path: '/api/probe/:id',
  auth: ['PROBE_EDIT'],
  summary: 'probe',
  tags: ['probe'],
  params: z.object({ id: z.coerce.number() }),
  body: z.object({ ids: z.array(z.number()) }),
  response: z.object({ updated: z.number() }),
});

export const sentRight: CallInput<typeof renameProbe> = { params: { id: 1 }, body: { ids: [1] } };
// @ts-expect-error the web still sends the old field name
export const sentOldName: CallInput<typeof renameProbe> = { params: { id: 1 }, body: { idList: [1] } };
// @ts-expect-error the path parameter is required
export const sentNoParams: CallInput<typeof renameProbe> = { body: { ids: [1] } };

export async function readsAnswer(): Promise<number> {
  const answer = await callContract(renameProbe, sentRight);
  // @ts-expect-error the web reads a field the answer no longer has
  void answer.count;
  return answer.updated;
}

export function serverSide(app: FastifyInstance): void {
  routeContract(app, renameProbe, async (req) => ({ updated: req.body.ids.length + req.params.id }));
  // @ts-expect-error the server answers with a field the contract does not state
  routeContract(app, renameProbe, async () => ({ count: 1 }));
  // @ts-expect-error the server reads a body field the contract does not state
  routeContract(app, renameProbe, async (req) => ({ updated: req.body.idList.length }));
}
