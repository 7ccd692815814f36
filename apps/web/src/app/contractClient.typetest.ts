/**
 * Compile-time test of the shared contracts (issue 21): `tsc -p tsconfig.json` fails when a contract field renamed on
 * one side is still used under its old name on the other. It uses a real contract (答复工资条异议: a path parameter,
 * a body and an answer), so renaming one of its fields also shows here. Each `@ts-expect-error` below must stay an
 * error; if a change made one of them compile, tsc reports the unused directive and the build fails.
 */
import type { ContractReply } from '@app/shared/contracts/contract';
import { replyObjection } from '@app/shared/contracts/payslipDelivery';
import type { FastifyInstance } from 'fastify';
import { routeContract } from '../../../server/src/crud/registerContract';
import { type CallInput, callContract } from './contractClient';

/** A receipt as the server hands it back (its value does not matter: this file is only compiled). */
declare const answered: ContractReply<typeof replyObjection>['receipt'];

export const sentRight: CallInput<typeof replyObjection> = { params: { id: 1 }, body: { text: '已核实' } };
// @ts-expect-error the web still sends the old field name
export const sentOldName: CallInput<typeof replyObjection> = { params: { id: 1 }, body: { reply: '已核实' } };
// @ts-expect-error the path parameter is required
export const sentNoParams: CallInput<typeof replyObjection> = { body: { text: '已核实' } };

export async function readsAnswer(): Promise<number> {
  const answer = await callContract(replyObjection, sentRight);
  // @ts-expect-error the web reads a field the answer no longer has
  void answer.count;
  return answer.receipt.id;
}

export function serverSide(app: FastifyInstance): void {
  routeContract(app, replyObjection, async (req) => ({ receipt: { ...answered, reply: req.body.text, id: req.params.id } }));
  // @ts-expect-error the server answers with a field the contract does not state
  routeContract(app, replyObjection, async () => ({ count: 1 }));
  // @ts-expect-error the server reads a body field the contract does not state
  routeContract(app, replyObjection, async (req) => ({ receipt: { ...answered, reply: req.body.reply } }));
}
