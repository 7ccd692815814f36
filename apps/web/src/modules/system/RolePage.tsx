import { assignRoleMenus, assignRolePermissions } from '@app/shared/contracts/system';
import { menuTree, permissionTree } from '@app/shared/contracts/systemTrees';
import { holdsPermissionCode } from '@app/shared/permissions';
import { permissionCodes } from '@app/shared/resource';
import { DATA_SCOPES, roleResource } from '@app/shared/resources/role';
import { PlusOutlined, SaveOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Col, Empty, Form, Input, Row as GridRow, Select, Space, Spin, Switch, Tree, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../app/auth';
import { callContract, contractCodes } from '../../app/contractClient';
import { CrudDialog, type DialogMode, FieldItem } from '../../crud/CrudDialog';
import { ResourceTable } from '../../crud/ResourceTable';
import { readRowOf } from '../../crud/resourceClient';
import { SearchBar } from '../../crud/SearchBar';
import { RefMultiSelect } from '../../crud/fields';
import { useApiMutation } from '../../crud/mutations';
import { type Row, useResourceList } from '../../crud/useResourceList';
import { type TreeRow, leafIds } from './tree';
import '../../crud/crud.css';
import './system.css';

/**
 * Roles: the role table, and beside it the menu tree or the permission tree (chosen with a switch) of the
 * selected role; saving replaces the role's menus or permissions and needs ROLES_EDIT (spec §6). Permission
 * codes the editor does not hold come greyed out: only what one holds may be handed on (issue 13 item 2).
 */

interface AssignNode {
  id: number;
  label: string;
  /** The permission code (permission tree only). */
  name?: string;
  disabled?: boolean;
  children?: AssignNode[];
}

/**
 * The permission tree with every code the editor does not hold disabled (greyed, not tickable), by the same
 * rule the server applies on saving (`holdsPermissionCode`: the code itself, its built-in `_ALL` parent, or
 * ADMIN; never a parent in the editable tree).
 */
export function markUngrantable(nodes: readonly AssignNode[], own: readonly string[]): AssignNode[] {
  return nodes.map((n) => {
    const out: AssignNode = { ...n, disabled: !n.name || !holdsPermissionCode(own, n.name) };
    if (n.children) out.children = markUngrantable(n.children, own);
    return out;
  });
}

const anyDisabled = (nodes: readonly AssignNode[]): boolean => nodes.some((n) => n.disabled || anyDisabled(n.children ?? []));

/** Menu or permission assignment of one role. */
function AssignPanel({ role, canSave }: { role: Row | null; canSave: boolean }) {
  const { t } = useTranslation('system');
  const [kind, setKind] = useState<'menus' | 'permissions'>('menus');
  const [checked, setChecked] = useState<number[]>([]);
  const [halfChecked, setHalfChecked] = useState<number[]>([]);
  const { permissions: own, refresh: refreshAuth } = useAuth();

  const tree = useQuery({
    queryKey: ['roles', 'assignTree', kind],
    queryFn: (): Promise<AssignNode[]> => (kind === 'menus' ? callContract(menuTree, {}) : callContract(permissionTree, {})),
    staleTime: 30_000,
  });
  const detail = useQuery({
    queryKey: ['roles', 'detail', role?.id],
    queryFn: () => readRowOf(roleResource, role!.id),
    enabled: !!role,
  });
  const nodes = useMemo(() => (kind === 'permissions' ? markUngrantable(tree.data ?? [], own) : (tree.data ?? [])), [tree.data, kind, own]);
  const someUngrantable = kind === 'permissions' && canSave && anyDisabled(nodes);

  // Tick the role's menus or permissions. Menus: only leaves (a ticked directory would tick all its pages);
  // permissions: every code (an X_ALL parent really means all of its children).
  useEffect(() => {
    if (!detail.data) {
      setChecked([]);
      return;
    }
    const ids = (detail.data[kind] ?? []).map((x) => Number(x.id));
    if (kind === 'menus') {
      const leaves = leafIds(nodes as unknown as TreeRow[]);
      setChecked(ids.filter((id) => leaves.has(id)));
    } else setChecked(ids);
    setHalfChecked([]);
  }, [detail.data, kind, nodes]);

  // the role's detail (what the tree ticks) is read again after saving
  const assign = useApiMutation<unknown, { id: number; kind: 'menus' | 'permissions'; ids: number[] }>({
    mutationFn: ({ id, kind: which, ids }) =>
      which === 'menus'
        ? callContract(assignRoleMenus, { body: { id, menus: ids.map((x) => ({ id: x })) } })
        : callContract(assignRolePermissions, { body: { id, permissions: ids.map((x) => ({ id: x })) } }),
    // the caller may hold this role: his sidebar (menus) and buttons (codes of /auth/info) follow at once
    invalidate: (_data, vars) => [['roles', 'detail', vars.id], ...(vars.kind === 'menus' ? [['menus', 'build']] : [])],
    onSuccess: (_data, vars) => (vars.kind === 'permissions' ? refreshAuth() : undefined),
    success: t('role.saved'),
  });
  const save = () => {
    if (!role) return;
    // A page needs its directories: half-ticked parents are granted too.
    const ids = kind === 'menus' ? [...new Set([...checked, ...halfChecked])] : checked;
    assign.mutate({ id: Number(role.id), kind, ids });
  };

  return (
    <Card
      variant="borderless"
      className="crud-page"
      data-testid="role-assign"
      title={
        <Space>
          <Switch
            checked={kind === 'permissions'}
            onChange={(on) => setKind(on ? 'permissions' : 'menus')}
            checkedChildren={t('role.permissionAssign')}
            unCheckedChildren={t('role.menuAssign')}
            data-testid="role-assign-switch"
          />
          <span>{role ? role.name : ''}</span>
        </Space>
      }
      extra={
        canSave && (
          <Button type="primary" size="small" icon={<SaveOutlined />} disabled={!role} loading={assign.isPending} onClick={save} data-testid="role-assign-save">
            {t('common.save')}
          </Button>
        )
      }
    >
      {!role ? (
        <Empty description={t('role.chooseHint')} />
      ) : tree.isLoading || detail.isLoading ? (
        <div style={{ textAlign: 'center', padding: 24 }}>
          <Spin />
        </div>
      ) : (
        <div className="role-tree">
          {someUngrantable && (
            <Typography.Paragraph type="secondary" data-testid="role-ungrantable-hint">
              {t('role.ungrantableHint')}
            </Typography.Paragraph>
          )}
          <Tree
            key={`${kind}-${role.id}`}
            checkable
            defaultExpandAll
            selectable={false}
            treeData={nodes as never}
            fieldNames={{ key: 'id', title: 'label', children: 'children' }}
            checkedKeys={checked}
            onCheck={(keys, info) => {
              const list = Array.isArray(keys) ? keys : keys.checked;
              setChecked(list.map(Number));
              setHalfChecked((info.halfCheckedKeys ?? []).map(Number));
            }}
            disabled={!canSave}
          />
        </div>
      )}
    </Card>
  );
}

function RoleDialog({ open, mode, record, onClose, onSaved }: { open: boolean; mode: DialogMode; record?: Row | null; onClose: () => void; onSaved?: () => void }) {
  const { t } = useTranslation('system');
  const detail = useQuery({
    queryKey: ['roles', 'detail', record?.id],
    queryFn: () => readRowOf(roleResource, record!.id),
    enabled: open && mode === 'edit' && !!record,
  });
  const [form] = Form.useForm();
  const scope = Form.useWatch('dataScope', form);
  const source = mode === 'edit' ? (detail.data ?? record) : null;
  const initialValues = useMemo<Row>(
    () =>
      source
        ? {
            name: source.name,
            level: source.level,
            dataScope: source.dataScope,
            remark: source.remark,
            depts: (source.depts ?? []).map((d: { id: number }) => d.id),
          }
        : { level: 3, dataScope: '本级', depts: [] },
    [source],
  );
  if (open && mode === 'edit' && detail.isLoading) return null;

  return (
    <CrudDialog
      def={roleResource}
      form={form}
      open={open}
      mode={mode}
      record={record}
      initialValues={initialValues}
      beforeSubmit={(values) => (values.dataScope === '自定义' && !(values.depts ?? []).length ? t('role.customDeptsRequired') : null)}
      toBody={(values) => {
        const body: Row = {
          name: values.name,
          level: values.level,
          dataScope: values.dataScope,
          remark: values.remark ?? null,
          depts: values.dataScope === '自定义' ? (values.depts ?? []).map((id: number) => ({ id })) : [],
        };
        if (mode === 'edit') body.id = record?.id;
        return body;
      }}
      onClose={onClose}
      onSaved={onSaved}
    >
      <GridRow gutter={16}>
        <Col span={12}>
          <FieldItem def={roleResource} field="name" />
        </Col>
        <Col span={12}>
          <FieldItem def={roleResource} field="level" />
        </Col>
        <Col span={24}>
          <FieldItem
            def={roleResource}
            field="dataScope"
            control={<Select options={DATA_SCOPES.map((s) => ({ value: s, label: t(`role.scope.${s}`, { defaultValue: s }) }))} data-testid="role-scope" />}
          />
        </Col>
        {scope === '自定义' && (
          <Col span={24}>
            <Form.Item name="depts" label={t('role.depts')} required>
              <RefMultiSelect resource="dept" labelField="name" placeholder={t('role.chooseDepts')} testId="role-depts" />
            </Form.Item>
          </Col>
        )}
        <Col span={24}>
          <FieldItem def={roleResource} field="remark" control={<Input.TextArea autoSize={{ minRows: 2, maxRows: 5 }} />} />
        </Col>
      </GridRow>
    </CrudDialog>
  );
}

export default function RolePage() {
  const { t } = useTranslation('system');
  const { hasPermission } = useAuth();
  const list = useResourceList(roleResource, { defaultSort: [['level', 'asc']] });
  const [selected, setSelected] = useState<Row | null>(null);
  const [dialog, setDialog] = useState<{ mode: DialogMode; record?: Row } | null>(null);
  const can = {
    create: hasPermission(permissionCodes(roleResource, 'create')),
    edit: hasPermission(permissionCodes(roleResource, 'edit')),
    delete: hasPermission(permissionCodes(roleResource, 'delete')),
  };

  return (
    <div className="split-page" data-testid="role-page">
      <div className="split-main">
        <Card variant="borderless" className="crud-page">
          <SearchBar def={roleResource} filters={list.filters} onSearch={list.search} keyword={{ placeholder: t('role.searchPlaceholder'), testId: 'role-search', width: 220 }} />
          <ResourceTable
            def={roleResource}
            list={list}
            canEdit={can.edit}
            canDelete={can.delete}
            onEdit={(row) => setDialog({ mode: 'edit', record: row })}
            onDeleted={(row) => selected?.id === row.id && setSelected(null)}
            expandable={false}
            render={{ dataScope: (v) => t(`role.scope.${v}`, { defaultValue: v ?? '' }) }}
            onRow={(row) => ({ onClick: () => setSelected(row) })}
            rowClassName={(row) => (row.id === selected?.id ? 'crud-selected-row crud-clickable-row' : 'crud-clickable-row')}
            toolbar={
              can.create && (
                <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ mode: 'create' })} data-testid="crud-add">
                  {t('common.add')}
                </Button>
              )
            }
          />
        </Card>
      </div>
      <div className="split-side" style={{ '--side-width': '380px' } as React.CSSProperties}>
        <AssignPanel role={selected} canSave={hasPermission(contractCodes(assignRoleMenus))} />
      </div>
      {(can.create || can.edit) && (
        <RoleDialog
          open={!!dialog}
          mode={dialog?.mode ?? 'create'}
          record={dialog?.record}
          onClose={() => setDialog(null)}
        />
      )}
    </div>
  );
}

