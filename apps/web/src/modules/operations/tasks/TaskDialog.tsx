import { listDataOrigins } from '@app/shared/contracts/operations/dataSources';
import { listModels } from '@app/shared/contracts/operations/models';
import { createTask, taskNextRuns, updateTask } from '@app/shared/contracts/operations/tasks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Divider, Form, Input, InputNumber, Modal, Select, Switch } from 'antd';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../../../app/feedback';
import { callContract } from '../../../app/contractClient';
import { CronField } from '../../../crud/CronField';
import type { ParameterInfo, TaskRow } from '../types';

interface FormValues {
  modelId: number;
  jobName: string;
  cronTime: string;
  dataId: number;
  property?: string;
  params: Record<string, string | number | boolean | null>;
}

/** Common schedules (Quartz form, seconds first), so nobody has to know cron by heart. */
const CRON_PRESETS = [
  { cron: '0 0 2 * * ?', key: 'daily2' },
  { cron: '0 0 * * * ?', key: 'hourly' },
  { cron: '0 0/30 * * * ?', key: 'halfHour' },
  { cron: '0 0 9 ? * 2-6', key: 'workdays9' },
  { cron: '0 0 3 1 * ?', key: 'monthly' },
] as const;

/** A model whose name contains 单例 needs a filter condition (spec §5). */
export const needsProperty = (modelName: string | null | undefined) => !!modelName?.includes('单例');

function parseParams(text: string | undefined): Record<string, unknown> {
  if (!text) return {};
  try {
    const v = JSON.parse(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? v : {};
  } catch {
    return {};
  }
}

/** One input per model parameter, typed by its parameterType. */
function ParameterInput({ p }: { p: ParameterInfo }) {
  const name = ['params', p.parameterCode];
  const testId = `task-param-${p.parameterCode}`;
  if (p.parameterType === 'Boolean')
    return (
      <Form.Item name={name} label={p.parameterName} valuePropName="checked">
        <Switch data-testid={testId} />
      </Form.Item>
    );
  if (p.parameterType === 'Interger')
    return (
      <Form.Item name={name} label={p.parameterName}>
        <InputNumber precision={0} style={{ width: 200 }} data-testid={testId} />
      </Form.Item>
    );
  return (
    <Form.Item name={name} label={p.parameterName}>
      <Input maxLength={200} data-testid={testId} />
    </Form.Item>
  );
}

/**
 * 新增 / 编辑 a model task (spec §5): model (on shelf), task name (not editable when editing), cron with presets and
 * the server's preview of the next fire times, data source, the filter condition shown and required only for a
 * model whose name contains 单例 (its options are the source's fields), and the model's own parameters.
 */
export default function TaskDialog({ open, editing, onClose }: { open: boolean; editing: TaskRow | null; onClose: () => void }) {
  const { t } = useTranslation('models');
  const [form] = Form.useForm<FormValues>();
  const queryClient = useQueryClient();
  const models = useQuery({
    queryKey: ['models', 'onShelf'],
    queryFn: () => callContract(listModels, { query: { statu: 1, pageNumber: 1, pageSize: 999 } }),
    enabled: open,
    staleTime: 30_000,
  });
  const sources = useQuery({
    queryKey: ['modelTasks', 'dataSources'],
    queryFn: () => callContract(listDataOrigins, { query: { pageNumber: 1, pageSize: 999 } }),
    enabled: open,
    staleTime: 30_000,
  });
  const modelId = Form.useWatch('modelId', form);
  const dataId = Form.useWatch('dataId', form);
  const model = useMemo(() => models.data?.content.find((m) => m.id === modelId) ?? null, [models.data, modelId]);
  const source = useMemo(() => sources.data?.content.find((s) => s.id === dataId) ?? null, [sources.data, dataId]);
  const withProperty = needsProperty(model?.modelName);

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    if (editing) {
      const params = parseParams(editing.params);
      const { jobName: _jobName, properties, ...rest } = params;
      form.setFieldsValue({
        modelId: editing.modelInfo.id,
        jobName: editing.jobName,
        cronTime: editing.cronTime,
        dataId: editing.dataId,
        property: typeof properties === 'string' ? properties : undefined,
        params: rest as FormValues['params'],
      });
    }
  }, [open, editing, form]);

  // a newly chosen model brings its parameters' defaults (an edited task keeps its own values)
  const chooseModel = (id: number) => {
    const m = models.data?.content.find((x) => x.id === id);
    if (!m) return;
    const defaults: FormValues['params'] = {};
    for (const p of m.parameterInfo) defaults[p.parameterCode] = p.defaultValue ?? (p.parameterType === 'Boolean' ? false : null);
    form.setFieldValue('params', defaults);
    if (!needsProperty(m.modelName)) form.setFieldValue('property', undefined);
  };

  const save = useMutation({
    mutationFn: async (v: FormValues) => {
      const params: Record<string, unknown> = { ...(v.params ?? {}) };
      if (withProperty && v.property) params.properties = v.property;
      const body = { modelInfo: { id: v.modelId }, jobName: v.jobName.trim(), cronTime: v.cronTime.trim(), dataId: v.dataId, property: withProperty ? v.property : undefined, params };
      if (editing) await callContract(updateTask, { body: { id: editing.id, ...body, jobName: editing.jobName } });
      else await callContract(createTask, { body });
    },
    onSuccess: () => {
      notify.success(editing ? t('msg.updated') : t('msg.created'), undefined, 2);
      onClose();
      return queryClient.invalidateQueries({ queryKey: ['modelTasks'] });
    },
  });

  const fieldOptions = (source?.tableData ?? []).map((f) => ({ value: f.fieldName, label: f.field && f.field !== f.fieldName ? `${f.fieldName}（${f.field}）` : f.fieldName }));
  // the model's own parameters, except a 单例 model's filter field, which the 过滤条件 select sets
  const parameters = (model?.parameterInfo ?? []).filter((p) => !(withProperty && p.parameterCode === 'properties'));

  return (
    <Modal
      open={open}
      title={editing ? t('task.editTitle') : t('task.addTitle')}
      width={720}
      okText={t('ok')}
      cancelText={t('cancel')}
      confirmLoading={save.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
      forceRender
    >
      <Form form={form} layout="horizontal" labelCol={{ span: 5 }} onFinish={(v) => save.mutate(v)} data-testid="task-dialog">
        <Form.Item name="modelId" label={t('task.model')} rules={[{ required: true, message: t('rule.model') }]}>
          <Select
            loading={models.isLoading}
            showSearch={{ optionFilterProp: 'label' }}
            onChange={chooseModel}
            data-testid="task-model"
            options={(models.data?.content ?? []).map((m) => ({ value: m.id, label: m.modelName }))}
          />
        </Form.Item>
        <Form.Item name="jobName" label={t('task.jobName')} rules={[{ required: true, whitespace: true, message: t('rule.jobName') }]} extra={editing ? t('task.nameFixed') : undefined}>
          <Input maxLength={100} disabled={!!editing} data-testid="task-name" />
        </Form.Item>
        <CronField
          name="cronTime"
          label={t('task.cronTime')}
          requiredMessage={t('rule.cronTime')}
          placeholder="0 0 2 * * ?"
          presets={CRON_PRESETS.map((p) => ({ value: p.cron, label: t(`preset.${p.key}`) }))}
          presetsPlaceholder={t('task.presets')}
          nextRunsUrl={taskNextRuns.path}
          nextRunsKey={['modelTasks', 'nextRuns']}
          nextRunsLabel={t('task.nextRuns')}
          noNextRunLabel={t('task.noNextRun')}
          testId="task-cron"
        />
        <Form.Item name="dataId" label={t('task.dataSource')} rules={[{ required: true, message: t('rule.dataSource') }]}>
          <Select
            loading={sources.isLoading}
            showSearch={{ optionFilterProp: 'label' }}
            onChange={() => form.setFieldValue('property', undefined)}
            data-testid="task-data"
            notFoundContent={t('task.noDataSource')}
            options={(sources.data?.content ?? []).map((s) => ({ value: s.id, label: `${s.dataName}（${s.type}）` }))}
          />
        </Form.Item>
        {withProperty ? (
          <Form.Item name="property" label={t('task.property')} rules={[{ required: true, message: t('rule.property') }]} extra={t('task.propertyHint')}>
            <Select showSearch={{ optionFilterProp: 'label' }} options={fieldOptions} disabled={!source} data-testid="task-property" />
          </Form.Item>
        ) : null}
        {parameters.length ? (
          <>
            <Divider titlePlacement="start" plain>
              {t('task.parameters')}
            </Divider>
            {parameters.map((p) => (
              <ParameterInput key={p.parameterCode} p={p} />
            ))}
          </>
        ) : null}
      </Form>
    </Modal>
  );
}
