import { DeleteOutlined, DownloadOutlined } from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import { Button, Space, Table, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../../app/auth';
import { notify } from '../../../app/feedback';
import { usePagedList } from '../../../crud/usePagedList';
import { FILE_DELETE, FILE_READ, FILE_UPLOAD, openDownload, type StorageFile, storageApi } from './api';
import { FileListToolbar, useFileDeletion } from './FileListToolbar';
import { UploadDialog } from './UploadDialog';
// U19: one date format everywhere (yyyy-MM-dd HH:mm:ss), not the browser's locale (2026/11/26)
import { formatDateTime } from '../../../crud/format';

/** The 文件列表 tab: search by name, upload dialog, download, synchronise, delete one or a selection. */
export function StorageFiles() {
  const { t } = useTranslation('storage');
  const { t: tc } = useTranslation('common');
  const { hasPermission } = useAuth();
  const canUpload = hasPermission(FILE_UPLOAD);
  const canDelete = hasPermission(FILE_DELETE);
  const canDownload = hasPermission(FILE_READ) || canDelete;
  const [uploading, setUploading] = useState(false);

  const list = usePagedList<StorageFile, { key: string }>({
    key: ['storage', 'files'],
    filters: { key: '' },
    load: ({ key }, page, size) => storageApi.files({ key, page, size, sort: 'id,desc' }),
    showTotal: (total) => t('files.total', { total }),
  });
  const refresh = list.refresh;

  const deletion = useFileDeletion({
    title: t('title'),
    remove: (ids) => (ids.length === 1 ? storageApi.remove(ids[0]) : storageApi.removeMany(ids)),
    refresh,
  });
  const sync = useMutation({
    mutationFn: storageApi.synchronize,
    onSuccess: (r) => {
      notify.success(t('files.synced'), t('files.syncedDetail', { added: r.added, missing: r.missingRemote }));
      return refresh();
    },
  });
  const download = useMutation({ mutationFn: async (id: number) => openDownload((await storageApi.downloadUrl(id)).url) });

  const columns: ColumnsType<StorageFile> = [
    { title: t('files.name'), dataIndex: 'key', ellipsis: { showTitle: true } },
    { title: t('files.type'), dataIndex: 'suffix', width: 80 },
    {
      title: t('files.bucket'),
      dataIndex: 'bucket',
      width: 150,
      render: (bucket: string, row) => (row.provider === 'local' ? <Tag>{t('files.local')}</Tag> : bucket),
    },
    { title: t('files.size'), dataIndex: 'size', width: 100 },
    {
      title: t('config.type'),
      dataIndex: 'type',
      width: 90,
      render: (type: string) => <Tag color={type === '私有' ? 'orange' : type === '公开' ? 'green' : 'default'}>{type === '本地' ? t('files.local') : type === '公开' ? t('config.public') : t('config.private')}</Tag>,
    },
    { title: t('files.updateTime'), dataIndex: 'updateTime', width: 180, render: (v: string) => formatDateTime(v) },
  ];
  if (canDownload || canDelete) {
    columns.push({
      title: t('files.actions'),
      key: 'actions',
      width: 170,
      fixed: 'right',
      render: (_, row) => (
        <Space size={0}>
          {canDownload && (
            <Button type="link" size="small" icon={<DownloadOutlined />} onClick={() => download.mutate(row.id)} data-testid="storage-download">
              {t('files.download')}
            </Button>
          )}
          {canDelete && (
            <Button type="link" size="small" danger icon={<DeleteOutlined />} onClick={() => deletion.confirmOne(row.id)} data-testid="storage-delete">
              {tc('actions.delete')}
            </Button>
          )}
        </Space>
      ),
    });
  }

  return (
    <div data-testid="storage-files">
      <FileListToolbar
        testId="storage"
        searchLabel={t('files.name')}
        searchPlaceholder={t('files.searchPlaceholder')}
        onSearch={(key) => list.filter({ key })}
        uploadLabel={t('files.upload')}
        onUpload={canUpload ? () => setUploading(true) : undefined}
        sync={canUpload ? { run: () => sync.mutate(), pending: sync.isPending } : undefined}
        batchDelete={canDelete ? { selectedCount: deletion.selected.length, run: deletion.confirmSelected } : undefined}
        onRefresh={refresh}
      />
      <Table<StorageFile>
        {...list.tableProps}
        size="middle"
        columns={columns}
        scroll={{ x: 900 }}
        rowSelection={deletion.rowSelection(canDelete)}
      />
      <UploadDialog
        open={uploading}
        title={t('upload.title')}
        hint={t('upload.hint', { max: '15 MB' })}
        send={storageApi.upload}
        onClose={(uploaded) => {
          setUploading(false);
          if (uploaded) refresh();
        }}
        testId="storage-upload-dialog"
      />
    </div>
  );
}
