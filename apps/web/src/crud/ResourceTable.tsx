import type { FieldDef, ResourceDef } from '@app/shared/resource';
import { DeleteOutlined, EditOutlined, ReloadOutlined, SettingOutlined } from '@ant-design/icons';
import { Button, Checkbox, Descriptions, Popconfirm, Popover, Space, Table, Tooltip } from 'antd';
import type { ColumnsType, TableProps } from 'antd/es/table';
import { type ReactNode, type ThHTMLAttributes, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../app/auth';
import type { DictMap } from '../app/dict';
import { useIsPhone } from '../app/useIsMobile';
import { api } from '../app/request';
import { type ColumnPrefsApi, MIN_COLUMN_WIDTH, columnPrefsKey, useColumnPrefs } from './columnPrefs';
import { alignOf, defaultWidth, detailFields, isSortable, labelOf, listFields, renderValue } from './fields';
import { fitHeaderWidth } from './headerWidth';
import { useResourceMutation } from './mutations';
import { PageTotalsRow } from './pageTotals';
import { PAGE_SIZES, type ResourceList, type Row } from './useResourceList';
import { listTotalText } from './listTotal';
import { deleteResourceRows } from './resourceClient';

/**
 * The list table of a resource: columns from the definition rendered by kind, server-side paging and
 * sorting, expandable detail rows, show/hide and drag-to-resize columns remembered per user, and the action
 * column (edit / delete with confirmation), shown only to holders of an edit or delete code.
 */

export const ACTIONS_COLUMN = '__actions';

export interface ResourceTableProps {
  def: ResourceDef;
  list: ResourceList<Row>;
  dicts?: DictMap;
  /** Fields shown as columns (default: the definition's list fields). */
  fields?: FieldDef[];
  /** Custom cell renderers by field name. */
  render?: Record<string, (value: any, row: Row) => ReactNode>;
  /** Adjust the generated columns (add, reorder, replace). */
  columns?: (columns: ColumnsType<Row>) => ColumnsType<Row>;
  canEdit?: boolean;
  canDelete?: boolean;
  onEdit?: (row: Row) => void;
  /** Delete URL of a row; default /api/<name>/<id>. */
  deleteUrl?: (row: Row) => string;
  /** Confirmation text of a single delete (default '确定删除本条数据吗？'). */
  deleteConfirm?: ReactNode;
  onDeleted?: (row: Row) => void;
  /** Disable edit/delete for some rows (e.g. locked ones). */
  rowLocked?: (row: Row) => boolean;
  /** Rows whose delete button is left out (e.g. the root department, oneself). */
  rowDeletable?: (row: Row) => boolean;
  /** Extra buttons in the action column. */
  rowActions?: (row: Row) => ReactNode;
  /** Show the action column even without edit/delete codes (when rowActions need it). */
  forceActions?: boolean;
  actionsWidth?: number;
  /** Checkbox selection (batch delete). */
  selection?: { keys: React.Key[]; onChange: (keys: React.Key[], rows: Row[]) => void };
  /** Expandable detail rows: true = the definition's detail fields; a function = custom content. */
  expandable?: boolean | ((row: Row) => ReactNode);
  /** Left part of the toolbar above the table. */
  toolbar?: ReactNode;
  /** Right-hand extra tools (before refresh/column settings). */
  tools?: ReactNode;
  /** Preferences key (default the resource name). */
  tableKey?: string;
  /** Tree data (menus, departments): no paging, controlled expansion. */
  tree?: { expandedKeys: React.Key[]; onExpand: (keys: React.Key[]) => void };
  pagination?: boolean;
  onRow?: TableProps<Row>['onRow'];
  rowClassName?: TableProps<Row>['rowClassName'];
  size?: 'small' | 'middle' | 'large';
  /** Hide the column settings and refresh tools. */
  hideTools?: boolean;
  /** Money columns added up in a 合计 row under the page's rows (U5). */
  pageTotals?: string[];
}

// ---- resizable header ------------------------------------------------------------------------------------

interface ResizableHeaderProps extends ThHTMLAttributes<HTMLTableCellElement> {
  onResizeWidth?: (width: number, done: boolean) => void;
}

function ResizableHeader({ onResizeWidth, children, style, ...rest }: ResizableHeaderProps) {
  const ref = useRef<HTMLTableCellElement>(null);
  if (!onResizeWidth) {
    return (
      <th {...rest} style={style}>
        {children}
      </th>
    );
  }
  const start = (e: React.MouseEvent) => {
    e.preventDefault();
    e.stopPropagation();
    const startX = e.clientX;
    const startWidth = ref.current?.offsetWidth ?? 100;
    let last = startWidth;
    const move = (ev: MouseEvent) => {
      last = Math.max(MIN_COLUMN_WIDTH, startWidth + ev.clientX - startX);
      onResizeWidth(last, false);
    };
    const up = () => {
      document.removeEventListener('mousemove', move);
      document.removeEventListener('mouseup', up);
      document.body.classList.remove('crud-resizing');
      onResizeWidth(last, true);
    };
    document.body.classList.add('crud-resizing');
    document.addEventListener('mousemove', move);
    document.addEventListener('mouseup', up);
  };
  return (
    // a fixed column's header is sticky through antd's class (which also anchors the resize handle): an inline
    // `position: relative` would override it and let the header scroll away from its fixed body cells
    <th {...rest} ref={ref} style={/ant-table-cell-fix/.test(String(rest.className ?? '')) ? style : { ...style, position: 'relative' }}>
      {children}
      <span className="crud-resize-handle" onMouseDown={start} onClick={(e) => e.stopPropagation()} aria-hidden />
    </th>
  );
}

// ---- column settings --------------------------------------------------------------------------------------

function ColumnSettings({ columns, prefs }: { columns: { key: string; title: ReactNode }[]; prefs: ColumnPrefsApi }) {
  const { t } = useTranslation('crud');
  const content = (
    <div className="crud-column-settings" data-testid="crud-column-settings">
      {columns.map((c) => (
        <div key={c.key}>
          <Checkbox checked={!prefs.prefs.hidden.includes(c.key)} onChange={(e) => prefs.setHidden(c.key, !e.target.checked)}>
            {c.title}
          </Checkbox>
        </div>
      ))}
      <Button size="small" type="link" onClick={prefs.reset} style={{ paddingLeft: 0 }}>
        {t('resetColumns')}
      </Button>
    </div>
  );
  return (
    <Popover content={content} trigger="click" placement="bottomRight" title={t('columns')}>
      <Tooltip title={t('columns')}>
        <Button icon={<SettingOutlined />} aria-label={t('columns')} data-testid="crud-columns" />
      </Tooltip>
    </Popover>
  );
}

// ---- table ---------------------------------------------------------------------------------------------------

function sortOrderOf(list: ResourceList<Row>, field: string): 'ascend' | 'descend' | null {
  const first = list.sort[0];
  if (!first || first[0] !== field) return null;
  return first[1] === 'asc' ? 'ascend' : 'descend';
}

/** Delete rows of a resource (resourceClient's deleteResourceRows), at `base` when its routes live elsewhere. */
export function deleteRows(def: Pick<ResourceDef, 'name'>, ids: unknown[], base?: string): Promise<void> {
  return deleteResourceRows(def.name, ids, base);
}

/** Columns that name a row, in order of preference: the one kept on the left of a wide table (W2). */
const IDENTITY_COLUMNS = ['staffName', 'name', 'companyName'];
/**
 * U3: widths of the columns that say who a row is. A fixed column without a width is squeezed by antd to a
 * sliver (20 px: one half character of 姓名), so every definition gets these unless it sets its own.
 */
export const IDENTITY_WIDTHS: Record<string, number> = { staffName: 100, name: 120, companyName: 180, idCard: 180, username: 140, nickName: 120, cname: 110 };
/** A table this wide scrolls on a 1440 px screen beside the sidebar. */
const WIDE_TABLE_PX = 1150;

export function ResourceTable(props: ResourceTableProps) {
  const { def, list, dicts } = props;
  const { t } = useTranslation('crud');
  const { user } = useAuth();
  const prefs = useColumnPrefs(columnPrefsKey(user?.username, props.tableKey ?? def.name));
  // below antd's md breakpoint (768 px) nothing is fixed
  const narrow = useIsPhone();
  const remove = useResourceMutation<unknown, Row>(def, {
    mutationFn: (row) => (props.deleteUrl ? api.del(props.deleteUrl(row)) : deleteRows(def, [row.id])),
    // a list read from elsewhere than /api/<name> refreshes too
    alsoInvalidate: [list.queryKey],
    success: t('deleted'),
    onSuccess: (_data, row) => {
      list.afterDelete(1);
      props.onDeleted?.(row);
    },
  });
  const deleting = remove.isPending ? remove.variables?.id : null;
  const fields = props.fields ?? listFields(def);

  const showActions = !!(props.canEdit || props.canDelete || props.forceActions);

  // Built on every render: cheap, and headers follow a language switch.
  const baseColumns: ColumnsType<Row> = fields.map((f) => ({
      key: f.name,
      dataIndex: f.name,
      title: labelOf(def.name, f),
      width: defaultWidth(f),
      align: alignOf(f),
      ellipsis: f.kind === 'text' || f.kind === 'string' ? { showTitle: true } : undefined,
      sorter: !props.tree && isSortable(f),
      render: (value: unknown, row: Row) => (props.render?.[f.name] ? props.render[f.name](value, row) : renderValue(f, value, row, dicts)),
  }));

  const actionColumn: ColumnsType<Row>[number] | null = !showActions
    ? null
    : {
      key: ACTIONS_COLUMN,
      title: t('actions'),
      width: props.actionsWidth ?? 130,
      fixed: 'right',
      align: 'center',
      render: (_: unknown, row: Row) => {
        const locked = props.rowLocked?.(row) ?? false;
        return (
          <Space size={4} onClick={(e) => e.stopPropagation()}>
            {props.canEdit && props.onEdit && (
              <Tooltip title={t('edit')}>
                <Button size="small" type="primary" icon={<EditOutlined />} disabled={locked} onClick={() => props.onEdit?.(row)} aria-label={t('edit')} data-testid="crud-edit" />
              </Tooltip>
            )}
            {props.canDelete && (props.rowDeletable?.(row) ?? true) && (
              <Popconfirm
                title={props.deleteConfirm ?? t('confirmDelete')}
                okText={t('ok')}
                cancelText={t('cancel')}
                disabled={locked}
                // a promise: the popover's 确定 spins until the server answered, as before
                onConfirm={() => remove.mutateAsync(row).catch(() => undefined)}
              >
                <Tooltip title={t('delete')}>
                  <Button size="small" danger type="primary" icon={<DeleteOutlined />} disabled={locked} loading={deleting === row.id} aria-label={t('delete')} data-testid="crud-delete" />
                </Tooltip>
              </Popconfirm>
            )}
            {props.rowActions?.(row)}
          </Space>
        );
      },
    };

  const generated = props.columns ? props.columns(baseColumns) : baseColumns;
  const allColumns = actionColumn ? [...generated, actionColumn] : generated;
  const columns = allColumns
    .filter((c) => !prefs.prefs.hidden.includes(String(c.key)))
    .map((c) => {
      const key = String(c.key);
      const width = prefs.prefs.widths[key] ?? fitHeaderWidth((c.width as number | undefined) ?? IDENTITY_WIDTHS[key], c.title, !!c.sorter, props.size ?? 'middle', !!c.ellipsis);
      const out = { ...c, width } as ColumnsType<Row>[number] & { sortOrder?: unknown; sorter?: unknown };
      if (out.sorter) out.sortOrder = sortOrderOf(list, key);
      if (key !== ACTIONS_COLUMN) {
        out.onHeaderCell = () =>
          ({
            onResizeWidth: (w: number, done: boolean) => prefs.setWidth(key, w, done),
          }) as never;
      }
      return out;
    });

  // W2: on a table wider than the screen, the row's identity (a person's name, else the company's) stays on the
  // left with the selection boxes while the rest scrolls; a screen that fixes its own columns keeps them.
  const scrollWidth = columns.reduce((sum, c) => sum + (Number(c.width) || 100), 0);
  const ownFixed = columns.some((c) => c.fixed === 'left' || c.fixed === true);
  const identityKey = ownFixed || scrollWidth <= WIDE_TABLE_PX ? undefined : IDENTITY_COLUMNS.find((k) => columns.some((c) => String(c.key) === k));
  if (identityKey) {
    const i = columns.findIndex((c) => String(c.key) === identityKey);
    const [identity] = columns.splice(i, 1);
    columns.unshift({ ...identity, fixed: 'left' });
  }
  // U8: on a phone the fixed columns would cover half the screen and each other; there everything scrolls
  if (narrow) {
    for (let i = 0; i < columns.length; i++) {
      if (columns[i].fixed) columns[i] = { ...columns[i], fixed: undefined };
    }
  }
  const leftFixed = !narrow && (ownFixed || identityKey !== undefined);

  const details = detailFields(def);
  const expandable: TableProps<Row>['expandable'] = props.tree
    ? { expandedRowKeys: props.tree.expandedKeys, onExpandedRowsChange: (keys) => props.tree?.onExpand([...keys]) }
    : typeof props.expandable === 'function'
      ? { expandedRowRender: props.expandable }
      : props.expandable !== false && details.length > 0
        ? {
            expandedRowRender: (row: Row) => (
              <Descriptions size="small" column={{ xs: 1, sm: 2, lg: 3 }} bordered className="crud-detail">
                {details.map((f) => (
                  <Descriptions.Item key={f.name} label={labelOf(def.name, f)}>
                    {renderValue(f, row[f.name], row, dicts)}
                  </Descriptions.Item>
                ))}
              </Descriptions>
            ),
          }
        : undefined;

  const onChange: TableProps<Row>['onChange'] = (_p, _f, sorter, extra) => {
    if (extra.action !== 'sort') return;
    const s = Array.isArray(sorter) ? sorter[0] : sorter;
    if (s?.order && s.columnKey) list.setSort([[String(s.columnKey), s.order === 'ascend' ? 'asc' : 'desc']]);
    else list.setSort(null);
  };

  const toggleable = allColumns.filter((c) => c.key !== ACTIONS_COLUMN).map((c) => ({ key: String(c.key), title: c.title as ReactNode }));
  // Columns without a width get what is left; count them at 100 px so narrow screens scroll instead of squeezing.
  const scrollX = scrollWidth;

  return (
    <div className="crud-table">
      {(props.toolbar || !props.hideTools) && (
        <div className="crud-toolbar">
          <Space wrap>{props.toolbar}</Space>
          {!props.hideTools && (
            <Space>
              {props.tools}
              <Tooltip title={t('refresh')}>
                <Button icon={<ReloadOutlined />} onClick={() => void list.reload()} aria-label={t('refresh')} data-testid="crud-refresh" />
              </Tooltip>
              <ColumnSettings columns={toggleable} prefs={prefs} />
            </Space>
          )}
        </div>
      )}
      <Table<Row>
        rowKey="id"
        size={props.size ?? 'middle'}
        columns={columns}
        dataSource={props.tree ? stripEmptyChildren(list.rows) : list.rows}
        loading={list.loading}
        onChange={onChange}
        components={{ header: { cell: ResizableHeader } }}
        scroll={{ x: scrollX }}
        expandable={expandable && leftFixed ? { ...expandable, fixed: 'left' } : expandable}
        onRow={props.onRow}
        rowClassName={props.rowClassName}
        summary={
          props.pageTotals?.length && list.rows.length > 0
            ? (pageRows) => (
                <Table.Summary>
                  <PageTotalsRow
                    rows={pageRows as Row[]}
                    columnKeys={columns.map((c) => String(c.key))}
                    sumKeys={props.pageTotals ?? []}
                    leadingColumns={(props.selection ? 1 : 0) + (expandable ? 1 : 0)}
                    label={t('pageTotal')}
                  />
                </Table.Summary>
              )
            : undefined
        }
        rowSelection={
          props.selection
            ? {
                fixed: leftFixed,
                selectedRowKeys: props.selection.keys,
                onChange: (keys, rows) => props.selection?.onChange(keys, rows),
                checkStrictly: true,
              }
            : undefined
        }
        pagination={
          props.pagination === false || props.tree
            ? false
            : {
                current: list.page + 1,
                pageSize: list.size,
                total: list.total,
                showSizeChanger: true,
                pageSizeOptions: PAGE_SIZES,
                showQuickJumper: true,
                showTotal: (total) => listTotalText(t, total, list.totalEstimated),
                onChange: (page, size) => list.setPage(page - 1, size),
              }
        }
      />
    </div>
  );
}

/** Tree rows without empty `children` arrays (antd would show an expander with nothing in it). */
export function stripEmptyChildren(rows: Row[]): Row[] {
  return rows.map((r) => {
    if (!Array.isArray(r.children)) return r;
    if (r.children.length === 0) {
      const { children: _c, ...rest } = r;
      return rest;
    }
    return { ...r, children: stripEmptyChildren(r.children) };
  });
}
