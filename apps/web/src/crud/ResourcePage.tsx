import type { ResourceDef } from '@app/shared/resource';
import { permissionCodes } from '@app/shared/resource';
import { RESOURCES } from '@app/shared/resources/index';
import { PlusOutlined } from '@ant-design/icons';
import { Button, Card, Result } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { type ReactNode, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../app/auth';
import { useDicts } from '../app/dict';
import { type DialogMode, type FieldOverride, ResourceForm } from './CrudDialog';
import { BatchDeleteButton, useBatchDelete } from './BatchDelete';
import { ExcelButtons } from './Excel';
import { ResourceTable } from './ResourceTable';
import { SearchBar } from './SearchBar';
import { dictNames } from './fields';
import { type ResourceListOptions, type Row, useResourceList } from './useResourceList';
import './crud.css';

/**
 * The generic resource screen: search bar, toolbar (add, batch delete, import/export), table and the
 * add/edit dialog, all driven by the resource definition and gated by its permission codes. Screens that
 * need more pass overrides, or compose `useResourceList`, `SearchBar`, `ResourceTable` and `ResourceForm`.
 */

export interface ResourcePageProps {
  resource: string | ResourceDef;
  /** List options (fixed params, initial filters, enabled, URL...). */
  list?: ResourceListOptions;
  /** Filters the search bar always adds (and never shows). */
  fixedFilters?: Record<string, unknown>;
  /** Search bar extra controls / fields left out. */
  searchExtra?: ReactNode;
  searchExclude?: string[];
  /** Adjust the table columns. */
  columns?: (columns: ColumnsType<Row>) => ColumnsType<Row>;
  render?: Record<string, (value: any, row: Row) => ReactNode>;
  rowActions?: (row: Row) => ReactNode;
  /** Extra toolbar buttons. */
  toolbar?: ReactNode;
  /** Dialog field overrides and body transform. */
  formOverrides?: Record<string, FieldOverride>;
  toBody?: (values: Row, mode: DialogMode) => Row | Promise<Row>;
  /** Hide standard actions regardless of codes. */
  hide?: Partial<Record<'create' | 'edit' | 'delete' | 'batchDelete' | 'import' | 'export' | 'search', boolean>>;
  /** Shown instead of the table while the list is disabled (e.g. '请选择一个单位'). */
  disabledHint?: ReactNode;
  /** Below the add/edit dialog's form (outside it), for the row being edited (undefined while adding). */
  dialogAfter?: (dialog: { mode: DialogMode; record?: Row }) => ReactNode;
  /** After 新增, the dialog stays open on the new row in edit mode (its `dialogAfter` can then be filled in). */
  editAfterCreate?: boolean;
}

function resolveDef(resource: string | ResourceDef): ResourceDef | null {
  return typeof resource === 'string' ? (RESOURCES[resource] ?? null) : resource;
}

export default function ResourcePage(props: ResourcePageProps) {
  const def = resolveDef(props.resource);
  const { t } = useTranslation('crud');
  if (!def) return <Result status="warning" title={t('unknownResource', { name: String(props.resource) })} />;
  return <ResourceScreen {...props} def={def} />;
}

export { ResourcePage };

function ResourceScreen({ def, ...props }: ResourcePageProps & { def: ResourceDef }) {
  const { t } = useTranslation('crud');
  const { hasPermission } = useAuth();
  const dicts = useDicts(useMemo(() => dictNames(def.fields), [def]));
  const list = useResourceList(def, props.list);
  const [dialog, setDialog] = useState<{ mode: DialogMode; record?: Row } | null>(null);
  const created = useRef<Row | null>(null);
  const hide = props.hide ?? {};

  const can = {
    create: !hide.create && hasPermission(permissionCodes(def, 'create')),
    edit: !hide.edit && hasPermission(permissionCodes(def, 'edit')),
    delete: !hide.delete && hasPermission(permissionCodes(def, 'delete')),
    import: !hide.import && hasPermission(permissionCodes(def, 'import')),
    export: !hide.export && hasPermission(permissionCodes(def, 'export')),
  };
  const batch = useBatchDelete(def, list, can.delete && !hide.batchDelete);
  const enabled = typeof props.list?.enabled === 'function' ? props.list.enabled(list.filters) : (props.list?.enabled ?? true);

  const toolbar = (
    <>
      {can.create && (
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ mode: 'create' })} data-testid="crud-add">
          {t('add')}
        </Button>
      )}
      <BatchDeleteButton batch={batch} />
      {def.excel && (
        <ExcelButtons
          def={def}
          filters={Object.fromEntries(Object.entries(list.filters).filter(([k]) => !(props.fixedFilters && k in props.fixedFilters)))}
          baseParams={{ ...props.list?.baseParams, ...props.fixedFilters }}
          canImport={can.import}
          canExport={can.export}
        />
      )}
      {props.toolbar}
    </>
  );

  return (
    <Card className="crud-page" variant="borderless" data-testid={`crud-page-${def.name}`}>
      {!hide.search && (
        <SearchBar
          def={def}
          dicts={dicts}
          filters={list.filters}
          onSearch={(f) => {
            batch.clear();
            list.search(f);
          }}
          fixed={props.fixedFilters}
          exclude={props.searchExclude}
          extra={props.searchExtra}
        />
      )}
      {enabled || !props.disabledHint ? (
        <ResourceTable
          def={def}
          list={list}
          dicts={dicts}
          columns={props.columns}
          render={props.render}
          canEdit={can.edit}
          canDelete={can.delete}
          onEdit={(row) => setDialog({ mode: 'edit', record: row })}
          onDeleted={batch.onRowDeleted}
          rowActions={props.rowActions}
          selection={batch.selection}
          toolbar={toolbar}
        />
      ) : (
        <div className="crud-disabled-hint">{props.disabledHint}</div>
      )}
      {(can.create || can.edit) && (
        <ResourceForm
          def={def}
          dicts={dicts}
          open={!!dialog}
          mode={dialog?.mode ?? 'create'}
          record={dialog?.record}
          overrides={props.formOverrides}
          toBody={props.toBody}
          after={dialog && props.dialogAfter ? props.dialogAfter(dialog) : undefined}
          onSaved={(r) => {
            if (props.editAfterCreate && r.mode === 'create' && r.row?.id !== undefined) created.current = r.row;
          }}
          onClose={() => {
            // the dialog closes after every save: a row just created is opened again, now to edit
            const row = created.current;
            created.current = null;
            setDialog(row ? { mode: 'edit', record: row } : null);
          }}
        />
      )}
    </Card>
  );
}
