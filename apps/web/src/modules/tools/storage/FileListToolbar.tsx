import { CloudUploadOutlined, DeleteOutlined, SyncOutlined } from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import { Button } from 'antd';
import { type Key, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { feedback, notify } from '../../../app/feedback';
import { ListToolbar } from '../../../crud/usePagedList';

/**
 * Deleting one row or the selection of a file list (storage files, pictures), behind the same confirm: the
 * selection, the confirm box and the mutation that refreshes the list.
 */
export function useFileDeletion({ title, remove, refresh }: { title: string; remove: (ids: number[]) => Promise<unknown>; refresh: () => unknown }) {
  const { t } = useTranslation('storage');
  const { t: tc } = useTranslation('common');
  const [selected, setSelected] = useState<number[]>([]);
  const mutation = useMutation({
    mutationFn: remove,
    onSuccess: () => {
      notify.success(t('files.deleted'));
      setSelected([]);
      return refresh();
    },
  });
  const confirm = (content: string, ids: number[]) =>
    feedback.modal.confirm({ title, content, okText: tc('actions.ok'), cancelText: tc('actions.cancel'), onOk: () => mutation.mutateAsync(ids).catch(() => undefined) });
  return {
    selected,
    /** The confirm for one row's delete button. */
    confirmOne: (id: number) => confirm(t('files.confirmDelete'), [id]),
    confirmSelected: () => confirm(t('files.confirmBatch'), selected),
    rowSelection: (enabled: boolean) => (enabled ? { selectedRowKeys: selected, onChange: (keys: Key[]) => setSelected(keys as number[]) } : undefined),
  };
}

export interface FileListToolbarProps {
  /** Test-id prefix: `<prefix>-search`, `-upload`, `-sync`, `-batch-delete`. */
  testId: string;
  /** The searched field's name, shown before the box (文件名). */
  searchLabel: string;
  searchPlaceholder: string;
  onSearch: (text: string) => void;
  uploadLabel: string;
  /** Absent: no upload button (no right to upload). */
  onUpload?: () => void;
  /** The synchronise button (storage files only). */
  sync?: { run: () => void; pending: boolean };
  /** Absent: no batch delete (no right to delete). */
  batchDelete?: { selectedCount: number; run: () => void };
  onRefresh: () => unknown;
}

/**
 * The filter row and toolbar above a file list (storage files, pictures), the shared ListToolbar of every
 * hand-written list (U19): a labelled search by name with 搜索/重置, then upload, synchronise and delete the
 * selection on the left and the refresh icon on the right.
 */
export function FileListToolbar({ testId, searchLabel, searchPlaceholder, onSearch, uploadLabel, onUpload, sync, batchDelete, onRefresh }: FileListToolbarProps) {
  const { t } = useTranslation('storage');
  return (
    <ListToolbar
      ns="crud"
      search={{ label: searchLabel, placeholder: searchPlaceholder, onSearch, testId: `${testId}-search`, width: 240 }}
      extra={
        <>
          {onUpload && (
            <Button type="primary" icon={<CloudUploadOutlined />} onClick={onUpload} data-testid={`${testId}-upload`}>
              {uploadLabel}
            </Button>
          )}
          {sync && (
            <Button icon={<SyncOutlined />} loading={sync.pending} onClick={sync.run} data-testid={`${testId}-sync`}>
              {t('files.sync')}
            </Button>
          )}
          {batchDelete && (
            // disabled until something is selected, as the resource screens' batch delete
            <Button danger icon={<DeleteOutlined />} disabled={batchDelete.selectedCount === 0} onClick={batchDelete.run} data-testid={`${testId}-batch-delete`}>
              {t('files.batchDelete')}
            </Button>
          )}
        </>
      }
      onRefresh={onRefresh}
    />
  );
}
