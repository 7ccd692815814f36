import type { FastifyInstance } from 'fastify';
import type { CodedMessage } from '@app/shared/errors/catalogue';
import { hasPermission } from '@app/shared/resource';
import type { CurrentUser } from '../../../core/context.ts';
import { AppError } from '../../../core/errors.ts';
import { DATA_SOURCE_CODES } from '../dataSources/codes.ts';
import { openDataOrigin } from '../dataSources/read.ts';
import { loadDataOrigin } from '../dataSources/store.ts';
import type { DataSourceReader } from '../dataSources/types.ts';

/** Codes that let a user see or choose a SQL or file data source (its screen, or the task dialog's list). */
const SOURCE_CODES = [...DATA_SOURCE_CODES.select, ...DATA_SOURCE_CODES.taskDialog];

/**
 * Open a task's data source as its owner, judged at run time (N4): a run reads with the owner's rights, so the
 * owner must still hold them when it runs, not only when the task was saved. A SQL or file source needs a
 * data-source code; a custom source needs the dataset's own list code and reads only the owner's data scope
 * (openDatasetRead). A refusal fails the run with the owner and the missing right named in the run log.
 */
export async function openSourceAsOwner(app: FastifyInstance, taskId: number, dataId: number, owner: CurrentUser, signal: AbortSignal): Promise<DataSourceReader> {
  // the reason is a catalogue message of its own, rendered in the reader's language with the refusal
  const refuse = (reason: CodedMessage): never => {
    app.log.warn({ taskId, owner: owner.username, reason: reason.code }, 'model task run refused: the owner may not read its data');
    throw new AppError('TASK_OWNER_FORBIDDEN', { owner: owner.username, reason });
  };
  const source = await loadDataOrigin(app.ctx.db, dataId);
  if (source.type !== 'custom' && !hasPermission(owner.permissions, SOURCE_CODES)) refuse({ code: 'TASK_OWNER_NO_SOURCE_RIGHT' });
  try {
    return await openDataOrigin(app, source, owner, { signal });
  } catch (err) {
    if (err instanceof AppError && err.code === 'DATASOURCE_DATASET_FORBIDDEN') refuse({ code: err.code, params: err.params });
    throw err;
  }
}
