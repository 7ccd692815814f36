import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { installFakeFetch, loginAs, page, renderWithApp, setupI18n } from '../../../crud/testUtils';
import type { ModelRow, TaskRow } from '../types';
import TaskDialog from './TaskDialog';

/** The task dialog by spec §5: name fixed when editing, the 单例 filter condition, and what it sends. */

/** The rest of a model row as the server answers it (the contract's shape). */
const modelExtras = { outputKind: 'xls_single', builtin: true, hasSecret: false, createTime: null, updateTime: null } as const;

const MODELS: ModelRow[] = [
  {
    id: 1,
    modelName: '单特征分布（单例）',
    site: 'builtin:distribution',
    fileType: 'python',
    statu: 1,
    parameterInfo: [
      { parameterCode: 'topN', parameterName: '图表取前N项', parameterType: 'Interger', defaultValue: 10 },
      { parameterCode: 'includeBlank', parameterName: '统计空值', parameterType: 'Boolean', defaultValue: false },
    ],
    ...modelExtras,
  },
  { id: 2, modelName: '交叉特征分析', site: 'builtin:crosstab', fileType: 'python', statu: 1, parameterInfo: [], ...modelExtras },
];

const editing: TaskRow = {
  id: 7,
  jobName: '学历分布',
  isPause: 1,
  modelInfo: { id: 1, modelName: '单特征分布（单例）' },
  dataId: 3,
  cronTime: '0 0 2 * * ?',
  beanName: 'modelTask',
  params: '{"jobName":"学历分布","topN":5,"includeBlank":true,"properties":"学历"}',
  nextRunAt: null,
  lastRunAt: null,
  lastStatus: null,
  createTime: null,
  updateTime: null,
};

beforeAll(async () => {
  await setupI18n();
});
afterEach(() => cleanup());

describe('task dialog', () => {
  it('keeps the name when editing, shows the filter condition for a 单例 model and sends the task with its parameters', async () => {
    const calls = installFakeFetch((call) => {
      if (call.path === '/ModelManageMent/getModelList') return page(MODELS);
      if (call.path === '/dataOrigin/getDataOriginList') return page([{ id: 3, dataName: '花名册', type: 'custom', tableData: [{ fieldName: '学历' }, { fieldName: '单位名称' }] }]);
      if (call.path === '/taskManagement/nextRuns') return { body: { times: ['2026-11-24T18:00:00.000Z'] } };
      if (call.method === 'PUT' && call.path === '/taskManagement/jobs') return { status: 204 };
      return undefined;
    });
    loginAs(['TASK_ALL']);
    let closed = false;
    renderWithApp(<TaskDialog open editing={editing} onClose={() => (closed = true)} />);
    const dialog = await screen.findByTestId('task-dialog');
    expect((within(dialog).getByTestId('task-name') as HTMLInputElement).disabled).toBe(true);
    expect((within(dialog).getByTestId('task-name') as HTMLInputElement).value).toBe('学历分布');
    await waitFor(() => expect(within(dialog).getByTestId('task-property').textContent).toContain('学历'));
    await waitFor(() => expect(screen.getByTestId('task-cron-preview')).toBeTruthy());
    expect((within(dialog).getByTestId('task-param-topN') as HTMLInputElement).value).toBe('5');

    fireEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(closed).toBe(true));
    const put = calls.find((c) => c.method === 'PUT');
    expect(put?.body).toEqual({
      id: 7,
      jobName: '学历分布',
      modelInfo: { id: 1 },
      cronTime: '0 0 2 * * ?',
      dataId: 3,
      property: '学历',
      params: { topN: 5, includeBlank: true, properties: '学历' },
    });
  });

  it('asks for the filter condition only when the model name contains 单例', async () => {
    installFakeFetch((call) => {
      if (call.path === '/ModelManageMent/getModelList') return page(MODELS);
      if (call.path === '/dataOrigin/getDataOriginList') return page([]);
      return undefined;
    });
    loginAs(['TASK_ALL']);
    renderWithApp(<TaskDialog open editing={{ ...editing, modelInfo: { id: 2, modelName: '交叉特征分析' }, params: '{}' }} onClose={() => undefined} />);
    const dialog = await screen.findByTestId('task-dialog');
    await waitFor(() => expect(within(dialog).getByTestId('task-model').textContent).toContain('交叉特征分析'));
    expect(within(dialog).queryByTestId('task-property')).toBeNull();
  });
});
