import { DownloadOutlined, EyeOutlined, ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import { exportModelData, listModelData, listModelDataGroups, previewModelData } from '@app/shared/contracts/operations/tasks';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Card, List, Modal, Select, Space, Spin, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../../app/auth';
import { callContract, contractCodes, downloadContract } from '../../../app/contractClient';
import { formatDateTime } from '../../../crud/format';
import { usePagedList } from '../../../crud/usePagedList';
import '../../../crud/crud.css';
import '../operations.css';
import { type ModelDataGroup, OUTPUT_KINDS, type OutputKind } from '../types';

const KIND_COLOR: Record<string, string> = { xls_single: 'blue', xls_muti: 'purple', xls: 'cyan' };

const formatBytes = (n: number) => (n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(n / 1024))} KB`);

/** The first 50 rows of one output workbook (`previewModelData`). */
function PreviewDialog({ file, onClose }: { file: { id: number; fileName: string } | null; onClose: () => void }) {
  const { t } = useTranslation('models');
  const q = useQuery({
    queryKey: ['modelData', 'preview', file?.id],
    queryFn: () => callContract(previewModelData, { query: { id: file?.id ?? 0 } }),
    enabled: file !== null,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const columns = (q.data?.columns ?? []).map((c, i) => ({ key: String(i), title: c || ' ', dataIndex: String(i), ellipsis: true, width: 140 }));
  const data = (q.data?.rows ?? []).map((r, i) => Object.fromEntries([['key', i], ...r.map((v, j) => [String(j), v === null || v === undefined ? '' : String(v)])]));
  return (
    <Modal open={file !== null} title={file?.fileName} width={1000} footer={null} onCancel={onClose} destroyOnHidden>
      {q.isLoading ? (
        <div style={{ textAlign: 'center', padding: 24 }}>
          <Spin />
        </div>
      ) : (
        <>
          <Table size="small" columns={columns} dataSource={data} pagination={false} scroll={{ x: Math.max(600, columns.length * 140), y: 420 }} data-testid="model-data-preview" />
          {q.data ? (
            <Typography.Text type="secondary" style={{ display: 'block', marginTop: 8 }}>
              {t('data.previewTotal', { shown: q.data.rows.length, total: q.data.total, count: q.data.total })}
            </Typography.Text>
          ) : null}
        </>
      )}
    </Modal>
  );
}

/**
 * 数据管理 › 模型数据 (spec §2): one row per run group, filtered by output kind (xls_single 单例, xls_muti 交叉, xls 多)
 * and group; a row expands to its file names, each with a preview; the selected groups export as all.zip after
 * '确定导出所有文件吗？'.
 */
export default function ModelDataPage() {
  const { t } = useTranslation('models');
  const { modal } = App.useApp();
  const { hasPermission } = useAuth();
  const [kindDraft, setKindDraft] = useState<OutputKind | undefined>(undefined);
  const [groupDraft, setGroupDraft] = useState<string | undefined>(undefined);
  const [selected, setSelected] = useState<string[]>([]);
  const [preview, setPreview] = useState<{ id: number; fileName: string } | null>(null);
  const [exporting, setExporting] = useState(false);

  // pages count from 1 on this endpoint (spec §9)
  const list = usePagedList<ModelDataGroup, { modelName?: OutputKind; groupName?: string }>({
    key: 'modelData',
    filters: {},
    load: (f, page, size) => callContract(listModelData, { query: { ...f, pageNumber: page + 1, pageSize: size } }),
    showTotal: (total) => t('total', { total }),
  });
  const groups = useQuery({ queryKey: ['modelData', 'groups'], queryFn: () => callContract(listModelDataGroups, {}), staleTime: 30_000 });
  const search = () => list.filter({ modelName: kindDraft, groupName: groupDraft });
  const exportSelected = () => {
    modal.confirm({
      title: t('data.exportTitle'),
      content: t('data.exportConfirm'),
      okText: t('ok'),
      cancelText: t('cancel'),
      onOk: async () => {
        setExporting(true);
        try {
          await downloadContract(exportModelData, { body: { groupName: selected.join(',') } }, 'all.zip');
        } finally {
          setExporting(false);
        }
      },
    });
  };

  const columns: ColumnsType<ModelDataGroup> = [
    { key: 'groupName', dataIndex: 'groupName', title: t('data.groupName'), width: 260, ellipsis: true },
    {
      key: 'modelName',
      dataIndex: 'modelName',
      title: t('data.kind'),
      width: 110,
      render: (v: string) => <Tag color={KIND_COLOR[v] ?? 'default'}>{t(`kind.${v}`, { defaultValue: v })}</Tag>,
    },
    { key: 'modelTitle', dataIndex: 'modelTitle', title: t('task.model'), width: 180, ellipsis: true },
    { key: 'taskName', dataIndex: 'taskName', title: t('task.jobName'), width: 150, ellipsis: true },
    { key: 'files', title: t('data.files'), width: 80, render: (_, r) => r.files.length },
    { key: 'rowsOut', dataIndex: 'rowsOut', title: t('data.rows'), width: 90 },
    { key: 'createTime', dataIndex: 'createTime', title: t('data.createTime'), width: 165, render: (v: string) => formatDateTime(v) },
  ];

  return (
    <Card variant="borderless" className="crud-page" data-testid="model-data-page">
      <Space wrap style={{ marginBottom: 12 }}>
        <Select
          allowClear
          placeholder={t('data.kind')}
          value={kindDraft}
          onChange={setKindDraft}
          style={{ width: 160 }}
          options={OUTPUT_KINDS.map((k) => ({ value: k, label: t(`kind.${k}`) }))}
          data-testid="model-data-kind"
        />
        <Select
          allowClear
          showSearch
          placeholder={t('data.groupName')}
          value={groupDraft}
          onChange={setGroupDraft}
          style={{ width: 280 }}
          loading={groups.isLoading}
          options={(groups.data ?? []).map((g) => ({ value: g, label: g }))}
          data-testid="model-data-group"
        />
        <Button type="primary" icon={<SearchOutlined />} onClick={search}>
          {t('search')}
        </Button>
        {hasPermission(contractCodes(exportModelData)) ? (
          <Button icon={<DownloadOutlined />} disabled={!selected.length} loading={exporting} onClick={exportSelected} data-testid="model-data-export">
            {selected.length ? t('data.exportSelected', { count: selected.length }) : t('data.export')}
          </Button>
        ) : null}
        <Button icon={<ReloadOutlined />} onClick={() => void list.refresh()}>
          {t('refresh')}
        </Button>
      </Space>
      <Table<ModelDataGroup>
        {...list.tableProps}
        rowKey="groupName"
        size="middle"
        columns={columns}
        scroll={{ x: 1100 }}
        data-testid="model-data-table"
        rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys as string[]), preserveSelectedRowKeys: true }}
        expandable={{
          expandedRowRender: (r) => (
            <List
              size="small"
              className="model-data-files"
              dataSource={r.files}
              renderItem={(f) => (
                <List.Item
                  actions={[
                    <Button key="preview" size="small" type="link" icon={<EyeOutlined />} onClick={() => setPreview(f)} data-testid="model-data-preview-open">
                      {t('data.preview')}
                    </Button>,
                  ]}
                >
                  <Space>
                    <span data-testid="model-data-file">{f.fileName}</span>
                    <Typography.Text type="secondary">{t('data.fileRows', { rows: f.rows, count: f.rows })}</Typography.Text>
                    <Typography.Text type="secondary">{formatBytes(f.size)}</Typography.Text>
                  </Space>
                </List.Item>
              )}
            />
          ),
        }}
      />
      <PreviewDialog file={preview} onClose={() => setPreview(null)} />
    </Card>
  );
}
