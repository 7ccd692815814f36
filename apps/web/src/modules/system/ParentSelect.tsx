import { TreeSelect } from 'antd';
import { useTranslation } from 'react-i18next';
import { useRefOptions } from '../../crud/fields';
import { type TreeRow, subtreeIds, toTreeOptions } from './tree';

/**
 * Parent picker of a tree resource (whole tree, not the filtered list): the edited node and its
 * descendants cannot be chosen (the server refuses cycles too); `top` adds a "top level" entry (pid 0).
 */
export function ParentSelect({
  resource,
  labelField = 'name',
  selfId,
  top,
  value,
  onChange,
  id,
}: {
  resource: string;
  labelField?: string;
  selfId?: number | null;
  top?: boolean;
  value?: number;
  onChange?: (v: number) => void;
  id?: string;
}) {
  const { t } = useTranslation('system');
  const { rows } = useRefOptions(resource, labelField);
  const tree = rows as TreeRow[];
  const disabled = selfId ? subtreeIds(tree, selfId) : new Set<number>();
  const options = toTreeOptions(tree, labelField, disabled);
  const treeData = top ? [{ value: 0, key: 0, title: t('common.topLevel'), children: options }] : options;
  return (
    <TreeSelect
      id={id}
      value={value}
      onChange={onChange}
      treeData={treeData}
      treeDefaultExpandedKeys={top ? [0] : undefined}
      treeDefaultExpandAll={!top}
      showSearch={{ treeNodeFilterProp: 'title' }}
      placeholder={t('common.chooseParent')}
      style={{ width: '100%' }}
      data-testid={`${resource}-parent`}
    />
  );
}
