import { createJob, type JobListRow, jobHandlers, jobNextRuns, listJobs, updateJob } from '@app/shared/contracts/jobs';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Form, Input, InputNumber, Modal, Radio, Select, Space } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../../../app/feedback';
import { callContract, contractKey, useContractQuery } from '../../../app/contractClient';
import { CronField } from '../../../crud/CronField';

/** A job of the list (one definition with the server's, in packages/shared). */
export type JobRow = JobListRow;

interface FormValues {
  jobName: string;
  handler: string;
  cronExpression: string;
  params: string;
  isPause: boolean;
  remark: string;
  retryCount: number;
  retryIntervalSec: number;
  misfirePolicy: 'once' | 'skip';
  allowOverlap: boolean;
}

/** Common schedules, so nobody has to know cron by heart (Quartz form, seconds first). */
const CRON_PRESETS = ['0 0/5 * * * ?', '0 0 * * * ?', '0 0 1 * * ?', '0 30 2 * * ?', '0 0 9 ? * 2-6', '0 0 8 1 * ?'];

/**
 * 新增 / 编辑 a system job: name, the handler chosen from the registered ones (never typed), cron with presets and
 * a preview of its next fire times, params as JSON, 启用/暂停 (a new job starts enabled), remark.
 */
export default function JobDialog({ open, editing, onClose }: { open: boolean; editing: JobRow | null; onClose: () => void }) {
  const { t } = useTranslation('jobs');
  const [form] = Form.useForm<FormValues>();
  const queryClient = useQueryClient();
  const handlers = useContractQuery(jobHandlers, {}, { enabled: open, staleTime: 60_000 });

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    if (editing)
      form.setFieldsValue({
        jobName: editing.jobName,
        handler: `${editing.beanName}.${editing.methodName}`,
        cronExpression: editing.cronExpression,
        params: editing.params,
        isPause: editing.isPause,
        remark: editing.remark ?? '',
        retryCount: editing.retryCount ?? 0,
        retryIntervalSec: editing.retryIntervalSec ?? 60,
        misfirePolicy: editing.misfirePolicy ?? 'once',
        allowOverlap: editing.allowOverlap ?? false,
      });
    else form.setFieldsValue({ isPause: false, params: '', remark: '', retryCount: 0, retryIntervalSec: 60, misfirePolicy: 'once', allowOverlap: false });
  }, [open, editing, form]);

  const save = useMutation({
    mutationFn: async (v: FormValues): Promise<void> => {
      const [beanName, methodName] = v.handler.split('.');
      const body = {
        jobName: v.jobName,
        beanName,
        methodName,
        cronExpression: v.cronExpression,
        params: v.params ?? '',
        isPause: v.isPause,
        remark: v.remark || null,
        retryCount: v.retryCount ?? 0,
        retryIntervalSec: v.retryIntervalSec ?? 60,
        misfirePolicy: v.misfirePolicy ?? 'once',
        allowOverlap: v.allowOverlap ?? false,
      };
      if (editing) await callContract(updateJob, { body: { id: editing.id, ...body } });
      else await callContract(createJob, { body });
    },
    onSuccess: () => {
      notify.success(editing ? t('msg.updated') : t('msg.created'));
      onClose();
      return queryClient.invalidateQueries({ queryKey: contractKey(listJobs) });
    },
  });

  return (
    <Modal
      open={open}
      title={editing ? t('dialog.editTitle') : t('dialog.addTitle')}
      width={750}
      okText={t('dialog.ok')}
      cancelText={t('dialog.cancel')}
      confirmLoading={save.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
      forceRender
    >
      <Form form={form} layout="horizontal" labelCol={{ span: 5 }} onFinish={(v) => save.mutate(v)} data-testid="job-dialog">
        <Form.Item name="jobName" label={t('field.jobName')} rules={[{ required: true, whitespace: true, message: t('rule.jobName') }]} validateTrigger="onBlur">
          <Input maxLength={100} data-testid="job-name" />
        </Form.Item>
        <Form.Item name="handler" label={t('field.handler')} rules={[{ required: true, message: t('rule.handler') }]} extra={t('dialog.handlerHint')}>
          <Select
            loading={handlers.isLoading}
            showSearch={{ optionFilterProp: 'label' }}
            data-testid="job-handler"
            options={(handlers.data ?? []).map((h) => ({ value: h.name, label: `${h.title}（${h.name}）` }))}
          />
        </Form.Item>
        <CronField
          name="cronExpression"
          label={t('field.cronExpression')}
          requiredMessage={t('rule.cron')}
          validateTrigger="onBlur"
          placeholder="0 0/5 * * * ?"
          presets={CRON_PRESETS.map((p) => ({ value: p, label: t(`preset.${p}`, { defaultValue: p }) }))}
          presetsPlaceholder={t('dialog.presets')}
          nextRunsUrl={jobNextRuns.path}
          nextRunsKey={contractKey(jobNextRuns)}
          nextRunsLabel={t('dialog.nextRuns')}
          noNextRunLabel={t('dialog.nextRuns')}
          testId="job-cron"
          hint={t('dialog.cronHint')}
        />
        <Form.Item name="params" label={t('field.params')} extra={t('dialog.paramsHint')}>
          <Input.TextArea rows={2} maxLength={2000} placeholder='{"days": 180}' data-testid="job-params" />
        </Form.Item>
        <Form.Item label={t('runOptions.retryCount')} extra={t('runOptions.retryHint')}>
          <Space wrap>
            <Form.Item name="retryCount" noStyle>
              <InputNumber min={0} max={10} precision={0} aria-label={t('runOptions.retryCount')} data-testid="job-retry-count" />
            </Form.Item>
            <span>{t('runOptions.retryInterval')}</span>
            <Form.Item name="retryIntervalSec" noStyle>
              <InputNumber min={1} max={3600} precision={0} aria-label={t('runOptions.retryInterval')} data-testid="job-retry-interval" />
            </Form.Item>
          </Space>
        </Form.Item>
        <Form.Item name="misfirePolicy" label={t('runOptions.misfire')} extra={t('runOptions.misfireHint')}>
          <Radio.Group
            options={[
              { value: 'once', label: t('runOptions.misfireOnce') },
              { value: 'skip', label: t('runOptions.misfireSkip') },
            ]}
          />
        </Form.Item>
        <Form.Item name="allowOverlap" label={t('runOptions.overlap')} extra={t('runOptions.overlapHint')}>
          <Radio.Group
            options={[
              { value: false, label: t('runOptions.overlapNo') },
              { value: true, label: t('runOptions.overlapYes') },
            ]}
          />
        </Form.Item>
        <Form.Item name="isPause" label={t('field.status')}>
          <Radio.Group
            options={[
              { value: false, label: t('status.enabled') },
              { value: true, label: t('status.paused') },
            ]}
          />
        </Form.Item>
        <Form.Item name="remark" label={t('field.remark')}>
          <Input.TextArea rows={2} maxLength={255} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
