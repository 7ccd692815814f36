/**
 * Permission codes of the data-source screens (packages/shared/src/permissions.ts group DATASOURCE). The task
 * dialog lists data sources and their fields too, so the task codes may read the list (not the preview).
 */
export const DATA_SOURCE_CODES = {
  select: ['DATASOURCE_ALL', 'DATASOURCE_SELECT'],
  create: ['DATASOURCE_ALL', 'DATASOURCE_CREATE'],
  edit: ['DATASOURCE_ALL', 'DATASOURCE_EDIT'],
  remove: ['DATASOURCE_ALL', 'DATASOURCE_DELETE'],
  taskDialog: ['JOB_ALL', 'JOB_CREATE', 'JOB_EDIT', 'TASK_ALL', 'TASK_CREATE', 'TASK_EDIT'],
};
