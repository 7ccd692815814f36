import type { ResourceDef } from '@app/shared/resource';
import { permissionCodes } from '@app/shared/resource';
import { NodeCollapseOutlined, NodeExpandOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Card, type FormInstance } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { type ReactNode, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../app/auth';
import { type DictMap, useDicts } from '../../app/dict';
import { CrudDialog, type DialogMode } from '../../crud/CrudDialog';
import { ResourceTable } from '../../crud/ResourceTable';
import { dictNames } from '../../crud/fields';
import { type Row, useResourceList } from '../../crud/useResourceList';
import { type TreeRow, parentKeys } from './tree';
import '../../crud/crud.css';

/**
 * A tree-shaped system list (departments, menus, permissions): the whole tree from `GET /api/<name>`,
 * expand/collapse all, a search bar, add/edit in a dialog, delete with a confirmation that says what
 * happens to the children. The screens supply the search controls, columns and dialog fields.
 */

export interface TreeResourcePageProps {
  def: ResourceDef;
  /** Search controls; call `search(filters)` to reload. */
  renderSearch: (search: (filters: Record<string, unknown>) => void, filters: Record<string, unknown>, dicts: DictMap) => ReactNode;
  columns?: (columns: ColumnsType<Row>) => ColumnsType<Row>;
  render?: Record<string, (value: any, row: Row) => ReactNode>;
  /** Dialog content. */
  renderForm: (ctx: { form: FormInstance; mode: DialogMode; record?: Row | null; dicts: DictMap; rows: TreeRow[] }) => ReactNode;
  /** Initial values of a new node (e.g. under the row where "add" was pressed). */
  newValues?: () => Row;
  toBody?: (values: Row, mode: DialogMode, record?: Row | null) => Row;
  deleteConfirm?: ReactNode;
  /** Rows that cannot be deleted (e.g. the root department). */
  rowDeletable?: (row: Row) => boolean;
  /** Expand the whole tree on first load. */
  expandAllInitially?: boolean;
  dialogWidth?: number;
  onChanged?: () => void;
}

export function TreeResourcePage(props: TreeResourcePageProps) {
  const { def } = props;
  const { t } = useTranslation('system');
  const { hasPermission } = useAuth();
  const dicts = useDicts(useMemo(() => dictNames(def.fields), [def]));
  const list = useResourceList(def, { paged: false });
  const [expanded, setExpanded] = useState<React.Key[]>([]);
  const [dialog, setDialog] = useState<{ mode: DialogMode; record?: Row } | null>(null);
  const rows = list.rows as TreeRow[];
  // The save and delete mutations refresh this tree and the pickers built on it (parent selects, the users'
  // department tree): see useResourceMutation.
  const changed = () => props.onChanged?.();

  const can = {
    create: hasPermission(permissionCodes(def, 'create')),
    edit: hasPermission(permissionCodes(def, 'edit')),
    delete: hasPermission(permissionCodes(def, 'delete')),
  };

  // First load (and every search): open the tree when asked to, or when the user is searching.
  const expandedOnce = useRef(false);
  const searching = Object.values(list.filters).some((v) => v !== undefined && v !== '');
  useEffect(() => {
    if (list.loading) return;
    if ((props.expandAllInitially && !expandedOnce.current) || searching) {
      expandedOnce.current = true;
      setExpanded(parentKeys(rows));
    }
  }, [rows, list.loading, searching, props.expandAllInitially]);

  const allExpanded = expanded.length > 0 && expanded.length >= parentKeys(rows).length;

  return (
    <Card className="crud-page" variant="borderless" data-testid={`tree-page-${def.name}`}>
      {/* a SearchBar: it brings its own labelled .crud-search row */}
      {props.renderSearch(list.search, list.filters, dicts)}
      <ResourceTable
        def={def}
        list={list}
        dicts={dicts}
        tree={{ expandedKeys: expanded, onExpand: setExpanded }}
        columns={props.columns}
        render={props.render}
        canEdit={can.edit}
        canDelete={can.delete}
        onEdit={(row) => setDialog({ mode: 'edit', record: row })}
        deleteConfirm={props.deleteConfirm}
        rowDeletable={props.rowDeletable}
        onDeleted={changed}
        expandable={false}
        toolbar={
          <>
            {can.create && (
              <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ mode: 'create' })} data-testid="crud-add">
                {t('common.add')}
              </Button>
            )}
            <Button
              icon={allExpanded ? <NodeCollapseOutlined /> : <NodeExpandOutlined />}
              onClick={() => setExpanded(allExpanded ? [] : parentKeys(rows))}
              data-testid="tree-toggle"
            >
              {allExpanded ? t('common.collapseAll') : t('common.expandAll')}
            </Button>
          </>
        }
      />
      {(can.create || can.edit) && (
        <CrudDialog
          def={def}
          open={!!dialog}
          mode={dialog?.mode ?? 'create'}
          record={dialog?.record}
          width={props.dialogWidth}
          layout="vertical"
          initialValues={dialog?.mode === 'create' && props.newValues ? props.newValues() : undefined}
          toBody={props.toBody ? (values, mode) => props.toBody!(values, mode, dialog?.record) : undefined}
          onClose={() => setDialog(null)}
          onSaved={changed}
        >
          {(form) => props.renderForm({ form, mode: dialog?.mode ?? 'create', record: dialog?.record, dicts, rows })}
        </CrudDialog>
      )}
    </Card>
  );
}
