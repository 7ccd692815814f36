import { CopyOutlined, DeleteOutlined } from '@ant-design/icons';
import { Button, Card, Image, Space, Table } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../../app/auth';
import { notify } from '../../../app/feedback';
import { usePagedList } from '../../../crud/usePagedList';
import { formatBytes, PICTURE_DELETE, PICTURE_UPLOAD, type Picture, storageApi } from './api';
import { FileListToolbar, useFileDeletion } from './FileListToolbar';
import { UploadDialog } from './UploadDialog';
import '../../../crud/crud.css';
// U19: one date format everywhere (yyyy-MM-dd HH:mm:ss), not the browser's locale (2026/11/26)
import { formatDateTime } from '../../../crud/format';

/** 系统工具 › 图床管理 (spec §2): search by file name, upload, preview, copy the URL, delete one or a selection. */
export default function PicturePage() {
  const { t } = useTranslation('storage');
  const { t: tc } = useTranslation('common');
  const { hasPermission } = useAuth();
  const canUpload = hasPermission(PICTURE_UPLOAD);
  const canDelete = hasPermission(PICTURE_DELETE);
  const [uploading, setUploading] = useState(false);

  const list = usePagedList<Picture, { filename: string }>({
    key: 'pictures',
    filters: { filename: '' },
    load: ({ filename }, page, size) => storageApi.pictures({ filename, page, size, sort: 'id,desc' }),
    showTotal: (total) => t('files.total', { total }),
  });
  const refresh = list.refresh;
  const deletion = useFileDeletion({
    title: t('picture.title'),
    remove: (ids) => (ids.length === 1 ? storageApi.removePicture(ids[0]) : storageApi.removePictures(ids)),
    refresh,
  });
  const copy = async (url: string) => {
    const absolute = new URL(url, window.location.origin).toString();
    await navigator.clipboard?.writeText(absolute).catch(() => undefined);
    notify.success(t('picture.copied'));
  };

  const columns: ColumnsType<Picture> = [
    { title: t('picture.preview'), dataIndex: 'url', width: 90, render: (url: string, row) => <Image src={url} alt={row.filename} width={48} height={48} style={{ objectFit: 'cover' }} /> },
    { title: t('picture.filename'), dataIndex: 'filename', ellipsis: { showTitle: true } },
    { title: t('picture.dimensions'), key: 'dims', width: 120, render: (_, row) => `${row.width} × ${row.height}` },
    { title: t('picture.size'), dataIndex: 'size', width: 100, render: (v: number) => formatBytes(v) },
    { title: t('picture.username'), dataIndex: 'username', width: 120 },
    { title: t('picture.createTime'), dataIndex: 'createTime', width: 180, render: (v: string) => formatDateTime(v) },
    {
      title: t('files.actions'),
      key: 'actions',
      width: 180,
      fixed: 'right',
      render: (_, row) => (
        <Space size={0}>
          <Button type="link" size="small" icon={<CopyOutlined />} onClick={() => copy(row.url)}>
            {t('picture.copy')}
          </Button>
          {canDelete && (
            <Button type="link" size="small" danger icon={<DeleteOutlined />} onClick={() => deletion.confirmOne(row.id)} data-testid="picture-delete">
              {tc('actions.delete')}
            </Button>
          )}
        </Space>
      ),
    },
  ];

  return (
    <Card variant="borderless" className="crud-page" data-testid="picture-page">
      <FileListToolbar
        testId="picture"
        searchLabel={t('picture.filename')}
        searchPlaceholder={t('picture.searchPlaceholder')}
        onSearch={(filename) => list.filter({ filename })}
        uploadLabel={t('picture.upload')}
        onUpload={canUpload ? () => setUploading(true) : undefined}
        batchDelete={canDelete ? { selectedCount: deletion.selected.length, run: deletion.confirmSelected } : undefined}
        onRefresh={refresh}
      />
      <Image.PreviewGroup>
        <Table<Picture>
          {...list.tableProps}
          size="middle"
          columns={columns}
          scroll={{ x: 900 }}
          rowSelection={deletion.rowSelection(canDelete)}
        />
      </Image.PreviewGroup>
      <UploadDialog
        open={uploading}
        title={t('picture.upload')}
        hint={t('picture.uploadHint')}
        accept="image/png,image/jpeg,image/gif,image/webp"
        send={storageApi.uploadPicture}
        onClose={(uploaded) => {
          setUploading(false);
          if (uploaded) refresh();
        }}
        testId="picture-upload-dialog"
      />
    </Card>
  );
}
