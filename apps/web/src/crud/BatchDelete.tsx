import type { ResourceDef } from '@app/shared/resource';
import { DeleteOutlined } from '@ant-design/icons';
import { Button, Popconfirm } from 'antd';
import { type Key, useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useResourceMutation } from './mutations';
import { type ResourceTableProps, deleteRows } from './ResourceTable';
import type { ResourceList, Row } from './useResourceList';

/**
 * Batch delete of the generic resource page, for any screen built from its parts: `useBatchDelete` keeps
 * the checked rows (pass `selection` to ResourceTable) and `BatchDeleteButton` is the toolbar button with
 * its own confirmation ('你确定删除选中的数据吗？'); one id -> DELETE <base>/<id>, several -> DELETE <base>
 * with the id array. Clear the selection when the list's filters change.
 */

export interface BatchDelete {
  /** Whether the screen offers batch delete (the user holds a delete code). */
  enabled: boolean;
  selected: Key[];
  deleting: boolean;
  /** For ResourceTable's `selection` (undefined when not enabled: no checkboxes). */
  selection: ResourceTableProps['selection'];
  /** Forget the checked rows (after a search or a change of the list's fixed filters). */
  clear: () => void;
  /** For ResourceTable's `onDeleted`: a row deleted on its own leaves the selection. */
  onRowDeleted: (row: Row) => void;
  /** Delete the checked rows; notifies '删除成功' and refreshes the list (errors are shown by the request layer). */
  run: () => Promise<void>;
}

export function useBatchDelete(def: ResourceDef, list: ResourceList, enabled = true, base?: string): BatchDelete {
  const { t } = useTranslation('crud');
  const [selected, setSelected] = useState<Key[]>([]);
  const { afterDelete, queryKey } = list;
  const remove = useResourceMutation<void, Key[]>(def, {
    mutationFn: (ids) => deleteRows(def, ids, base),
    alsoInvalidate: [queryKey],
    success: t('deleted'),
    onSuccess: (_data, ids) => {
      afterDelete(ids.length);
      setSelected([]);
    },
  });
  const { mutateAsync } = remove;

  const run = useCallback(async () => {
    if (selected.length === 0) return;
    // the failure was shown by the request layer; the rows stay checked
    await mutateAsync(selected).catch(() => undefined);
  }, [selected, mutateAsync]);

  const clear = useCallback(() => setSelected([]), []);
  const onRowDeleted = useCallback((row: Row) => setSelected((s) => s.filter((k) => k !== row.id)), []);
  const selection = useMemo(() => (enabled ? { keys: selected, onChange: (keys: Key[]) => setSelected(keys) } : undefined), [enabled, selected]);

  return { enabled, selected, deleting: remove.isPending, selection, clear, onRowDeleted, run };
}

/** The toolbar button of `useBatchDelete` (nothing when batch delete is not enabled). */
export function BatchDeleteButton({ batch }: { batch: BatchDelete }) {
  const { t } = useTranslation('crud');
  if (!batch.enabled) return null;
  const none = batch.selected.length === 0;
  return (
    <Popconfirm title={t('confirmBatchDelete')} okText={t('ok')} cancelText={t('cancel')} onConfirm={batch.run} disabled={none}>
      <Button danger icon={<DeleteOutlined />} disabled={none} loading={batch.deleting} data-testid="crud-batch-delete">
        {t('delete')}
      </Button>
    </Popconfirm>
  );
}
