import { SettingOutlined } from '@ant-design/icons';
import { dashboardTasks, dataVolume, exportModelData, listTasks, taskTraits } from '@app/shared/contracts/operations/tasks';
import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Col, Empty, Modal, Row, Select, Space, Statistic, Typography } from 'antd';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../../app/auth';
import { notify } from '../../../app/feedback';
import { callContract, contractCodes } from '../../../app/contractClient';
import { isOrdinaryEmployee } from '../../../app/session';
import { useRowCount } from '../../dashboard/rowCount';
import '../operations.css';

// ECharts is ~400 KB: loaded only when a chart is shown, so the home screen's lists do not wait for it
const TraitChart = lazy(() => import('./TraitChart'));

export type { ChosenTask, Trait } from '@app/shared/contracts/operations/tasks';

/** Spec §2: the chart shows 1 to 4 tasks. */
export const MAX_CHART_TASKS = 4;

function VolumeCards() {
  const { t } = useTranslation('models');
  const q = useQuery({ queryKey: ['dashboard', 'volume'], queryFn: () => callContract(dataVolume, {}, { silent: true }), refetchInterval: 60_000 });
  const rowCount = useRowCount();
  if (q.isError) return <Alert type="warning" showIcon title={t('dashboard.volumeFailed')} />;
  // raw counts when the server gives them (5 rows read 5条, not 0.00 万条); else the spec's 万条 figures
  const asRows = (wan: [number, number] | undefined, rows: [number, number] | undefined): [number, number] | undefined => rows ?? (wan ? [wan[0] * 10_000, wan[1] * 10_000] : undefined);
  const periods: [string, [number, number] | undefined][] = [
    ['day', asRows(q.data?.day[0], q.data?.rows?.day)],
    ['month', asRows(q.data?.mouth[0], q.data?.rows?.mouth)],
    ['sum', asRows(q.data?.sum[0], q.data?.rows?.sum)],
  ];
  return (
    <Row gutter={[16, 16]} data-testid="dashboard-volume">
      {periods.map(([key, v]) => (
        <Col key={key} xs={24} md={8}>
          <Card size="small" loading={q.isLoading} title={t(`dashboard.period.${key}`)} className="dashboard-volume-card" data-testid={`dashboard-volume-${key}`}>
            <Space size={48}>
              <Statistic title={t('dashboard.output')} value={rowCount(v?.[0] ?? 0)} />
              <Statistic title={t('dashboard.calculation')} value={rowCount(v?.[1] ?? 0)} />
            </Space>
          </Card>
        </Col>
      ))}
    </Row>
  );
}

/** 图表设置: pick 1 to 4 model tasks for the top-10 charts (`POST /instrument/dataConfigList {ids}`). */
function ChartSettings({ open, chosen, onClose }: { open: boolean; chosen: number[]; onClose: () => void }) {
  const { t } = useTranslation('models');
  const queryClient = useQueryClient();
  const [ids, setIds] = useState<number[]>(chosen);
  useEffect(() => {
    if (open) setIds(chosen);
  }, [open, chosen]);
  const tasks = useQuery({
    queryKey: ['modelTasks', 'list', 'dashboard'],
    queryFn: () => callContract(listTasks, { query: { page: 0, size: 200 } }),
    enabled: open,
  });
  const save = useMutation({
    mutationFn: () => callContract(dashboardTasks, { body: { ids } }),
    onSuccess: (answer) => {
      queryClient.setQueryData(['dashboard', 'config'], answer);
      notify.success(t('msg.saved'));
      onClose();
    },
  });
  const valid = ids.length >= 1 && ids.length <= MAX_CHART_TASKS;
  return (
    <Modal open={open} title={t('dashboard.settingsTitle')} okText={t('ok')} cancelText={t('cancel')} onOk={() => save.mutate()} okButtonProps={{ disabled: !valid }} confirmLoading={save.isPending} onCancel={onClose} destroyOnHidden>
      <Typography.Paragraph type="secondary">{t('dashboard.settingsHint', { max: MAX_CHART_TASKS })}</Typography.Paragraph>
      <Select
        mode="multiple"
        style={{ width: '100%' }}
        value={ids}
        onChange={(v: number[]) => setIds(v.slice(0, MAX_CHART_TASKS))}
        loading={tasks.isLoading}
        maxCount={MAX_CHART_TASKS}
        showSearch={{ optionFilterProp: 'label' }}
        options={(tasks.data?.content ?? []).map((r) => ({ value: r.id, label: r.jobName }))}
        data-testid="dashboard-settings-tasks"
      />
      {!valid ? <Typography.Text type="danger">{t('rule.pickTasks', { max: MAX_CHART_TASKS })}</Typography.Text> : null}
    </Modal>
  );
}

function TraitCharts() {
  const { t } = useTranslation('models');
  const { hasPermission } = useAuth();
  const [settingsOpen, setSettingsOpen] = useState(false);
  // without ids the server answers the saved choice (or the four most recently run tasks)
  const config = useQuery({ queryKey: ['dashboard', 'config'], queryFn: () => callContract(dashboardTasks, { body: {} }, { silent: true }) });
  const chosen = config.data ?? [];
  const traits = useQueries({
    queries: chosen.map((task) => ({ queryKey: ['dashboard', 'traits', task.id], queryFn: () => callContract(taskTraits, { query: { id: task.id } }, { silent: true }) })),
  });
  return (
    <Card
      variant="borderless"
      title={t('dashboard.chartTitle')}
      data-testid="dashboard-charts"
      extra={
        hasPermission(contractCodes(listTasks)) ? (
          <Button size="small" icon={<SettingOutlined />} onClick={() => setSettingsOpen(true)} data-testid="dashboard-settings">
            {t('dashboard.settings')}
          </Button>
        ) : null
      }
    >
      {config.isSuccess && chosen.length === 0 ? (
        <Empty description={t('dashboard.noTasks')} />
      ) : (
        <Row gutter={[16, 16]}>
          {chosen.map((task, i) => (
            <Col key={task.id} xs={24} lg={chosen.length === 1 ? 24 : 12}>
              <Suspense fallback={<Card size="small" title={task.jobName} loading />}>
                <TraitChart task={task} traits={traits[i]?.data} />
              </Suspense>
            </Col>
          ))}
        </Row>
      )}
      <ChartSettings open={settingsOpen} chosen={chosen.map((c) => c.id)} onClose={() => setSettingsOpen(false)} />
    </Card>
  );
}

/**
 * The home screen's model statistics (spec §2 dashboard): 今日/本月/累计 output and calculation in 万条 from the
 * run log, and the top-10 bar charts of 1-4 chosen tasks with their settings dialog. Hidden for 普通员工, whose
 * dashboard tab the spec hides, and for users without the model-data or task codes (the server refuses both).
 */
export default function ModelStatistics() {
  const { t } = useTranslation('models');
  const { user, hasPermission } = useAuth();
  // the server answers /instrument/* only to holders of the model-data or task codes (N3, E7): the others
  // do not see the section rather than a warning they can do nothing about
  if (isOrdinaryEmployee(user) || !hasPermission(contractCodes(exportModelData))) return null;
  return (
    <div className="dashboard-model-statistics" data-testid="dashboard-model-statistics">
      <Typography.Title level={5} style={{ marginTop: 0 }}>
        {t('dashboard.title')}
      </Typography.Title>
      <VolumeCards />
      <div style={{ height: 16 }} />
      <TraitCharts />
    </div>
  );
}
