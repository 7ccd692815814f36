import { FileSearchOutlined, SearchOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Input, Modal, Select, Space, Spin, Table, Tag } from 'antd';
import type { ColumnsType, ColumnType } from 'antd/es/table';
import type { TableProps } from 'antd/es/table';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../app/request';
import { formatDateTime } from './format';

/** What every run-log row has (system jobs and model tasks both write `sys_job_log`). */
export interface RunLogRowBase {
  id: number;
  /** null on a log row whose job had no name (the column stays empty) */
  jobName: string | null;
  trigger: string;
  time: number;
  isSuccess: boolean;
  createTime: string;
}

/** Spec §9 log time tags: up to 300 ms normal, up to 1000 ms warning, above danger. */
export const runTimeColor = (ms: number) => (ms <= 300 ? 'success' : ms <= 1000 ? 'warning' : 'error');

/** The columns both logs show the same way; each screen places them among its own. */
export interface RunLogCommonColumns<R extends RunLogRowBase> {
  trigger: ColumnType<R>;
  time: ColumnType<R>;
  status: ColumnType<R>;
  createTime: ColumnType<R>;
}

export interface RunLogDialogProps<R extends RunLogRowBase> {
  open: boolean;
  onClose: () => void;
  /** Translation namespace holding `log.*`, `search` and `total` (the screens keep their own wording). */
  ns: string;
  /** List endpoint: takes jobName, isSuccess, page, size; answers { content, totalElements }. */
  url: string;
  queryKey: readonly unknown[];
  pageSize: number;
  width: number;
  scrollX: number;
  /** Prefix of the test ids (`<prefix>-table`, `-status`, `-detail`, `-exception`). */
  testId: string;
  nameTestId: string;
  jobNameLabel: string;
  /** The whole column list, built around the common columns; the exception column is added last. */
  columns: (common: RunLogCommonColumns<R>) => ColumnsType<R>;
  hasException: (row: R) => boolean;
  /** The exception text of one row: at hand in the row, or fetched when its dialog opens. */
  loadException: (row: R) => string | Promise<string>;
  expandable?: TableProps<R>['expandable'];
}

function ExceptionDialog<R extends RunLogRowBase>({ row, props, onClose }: { row: R | null; props: RunLogDialogProps<R>; onClose: () => void }) {
  const { t } = useTranslation(props.ns);
  const q = useQuery({
    queryKey: [...props.queryKey, 'detail', row?.id],
    queryFn: async () => (row ? await props.loadException(row) : ''),
    enabled: row !== null,
    staleTime: Number.POSITIVE_INFINITY,
  });
  let body: ReactNode;
  if (q.isLoading)
    body = (
      <div style={{ textAlign: 'center', padding: 24 }}>
        <Spin />
      </div>
    );
  else
    body = (
      <pre className="log-exception" data-testid={`${props.testId}-exception`}>
        {q.data || t('log.noException')}
      </pre>
    );
  return (
    <Modal open={row !== null} title={t('log.exceptionTitle')} width={800} footer={null} onCancel={onClose} destroyOnHidden>
      {body}
    </Modal>
  );
}

/**
 * 执行日志 (spec §9), for the system jobs and the model tasks alike: newest first, paged, searched by job name
 * and 成功/失败, a failed run's exception detail in its own dialog. The screens differ only in their columns,
 * page size, endpoint and where the exception text comes from.
 */
export function RunLogDialog<R extends RunLogRowBase>(props: RunLogDialogProps<R>) {
  const { open, onClose, pageSize, testId } = props;
  const { t } = useTranslation(props.ns);
  const [draft, setDraft] = useState('');
  const [jobName, setJobName] = useState('');
  const [isSuccess, setIsSuccess] = useState<'true' | 'false' | undefined>(undefined);
  const [page, setPage] = useState(0);
  const [detail, setDetail] = useState<R | null>(null);
  const list = useQuery({
    queryKey: [...props.queryKey, jobName, isSuccess, page],
    queryFn: () => api.get<{ content: R[]; totalElements: number }>(props.url, { jobName: jobName || undefined, isSuccess, page, size: pageSize }),
    enabled: open,
    placeholderData: (previous) => previous,
  });
  const search = () => {
    setJobName(draft.trim());
    setPage(0);
  };

  const common: RunLogCommonColumns<R> = {
    trigger: { key: 'trigger', dataIndex: 'trigger', title: t('log.trigger'), width: 80, render: (v: string) => t(`log.trigger_${v === 'cron' ? 'cron' : 'manual'}`) },
    time: { key: 'time', dataIndex: 'time', title: t('log.time'), width: 90, render: (ms: number) => <Tag color={runTimeColor(ms)}>{t('log.ms', { ms })}</Tag> },
    status: {
      key: 'isSuccess',
      dataIndex: 'isSuccess',
      title: t('log.status'),
      width: 70,
      render: (ok: boolean) => <Tag color={ok ? 'success' : 'error'}>{ok ? t('log.success') : t('log.failure')}</Tag>,
    },
    createTime: { key: 'createTime', dataIndex: 'createTime', title: t('log.createTime'), width: 165, render: (v: string) => formatDateTime(v) },
  };
  const columns: ColumnsType<R> = [
    ...props.columns(common),
    {
      key: 'detail',
      title: t('log.exception'),
      width: 90,
      render: (_, r) =>
        props.hasException(r) ? (
          <Button size="small" type="link" icon={<FileSearchOutlined />} onClick={() => setDetail(r)} data-testid={`${testId}-detail`}>
            {t('log.view')}
          </Button>
        ) : null,
    },
  ];

  return (
    <Modal open={open} title={t('log.title')} width={props.width} footer={null} onCancel={onClose} destroyOnHidden>
      <Space wrap style={{ marginBottom: 12 }}>
        <Input
          allowClear
          placeholder={props.jobNameLabel}
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          onPressEnter={search}
          style={{ width: 200 }}
          data-testid={props.nameTestId}
        />
        <Select
          allowClear
          placeholder={t('log.status')}
          value={isSuccess}
          onChange={(v) => {
            setIsSuccess(v);
            setPage(0);
          }}
          style={{ width: 120 }}
          options={[
            { value: 'true', label: t('log.success') },
            { value: 'false', label: t('log.failure') },
          ]}
          data-testid={`${testId}-status`}
        />
        <Button type="primary" icon={<SearchOutlined />} onClick={search}>
          {t('search')}
        </Button>
      </Space>
      <Table<R>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={list.data?.content ?? []}
        loading={list.isFetching}
        scroll={{ x: props.scrollX }}
        data-testid={`${testId}-table`}
        expandable={props.expandable}
        pagination={{
          current: page + 1,
          pageSize,
          total: list.data?.totalElements ?? 0,
          showSizeChanger: false,
          showTotal: (total) => t('total', { total }),
          onChange: (p) => setPage(p - 1),
        }}
      />
      <ExceptionDialog row={detail} props={props} onClose={() => setDetail(null)} />
    </Modal>
  );
}
