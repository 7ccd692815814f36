import { allRoles, exportUsers, ownRoleLevel } from '@app/shared/contracts/system';
import { permissionCodes } from '@app/shared/resource';
import { userResource } from '@app/shared/resources/user';
import { DownloadOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Card, Col, Form, Input, Row as GridRow, Select, Tree, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../app/auth';
import { contractCodes, downloadContract, useContractQuery } from '../../app/contractClient';
import { useEagerQuery } from '../../app/prefetch';
import { type DictMap, useDicts } from '../../app/dict';
import { feedback, notify } from '../../app/feedback';
import { CrudDialog, type DialogMode, FieldItem } from '../../crud/CrudDialog';
import { ResourceTable } from '../../crud/ResourceTable';
import { SearchBar } from '../../crud/SearchBar';
import { RefSelect } from '../../crud/fields';
import { type Row, useResourceList } from '../../crud/useResourceList';
import { type TreeRow, parentKeys } from './tree';
import { USER_DICTS, deptTreeQuery } from './userScreenData';
import '../../crud/crud.css';
import './system.css';

/**
 * Users: department tree on the left (with its own name search), user list on the right (blurry, status,
 * department), the user dialog with the role-level rule, and the one-time display of a new user's password.
 */

/** The caller's highest role level (smallest number), from the server. */
export function useMyLevel(): number | null {
  const { user } = useAuth();
  const q = useContractQuery(ownRoleLevel, {}, { staleTime: 60_000 });
  const level = q.data?.level ?? user?.level;
  return typeof level === 'number' ? level : null;
}

/** Spec §5: roles at or above my level are disabled unless my level is 1. */
export function roleDisabled(roleLevel: number, myLevel: number | null): boolean {
  if (myLevel === 1) return false;
  if (myLevel === null) return true;
  return roleLevel <= myLevel;
}

function DeptTree({ selected, onSelect }: { selected: number | null; onSelect: (id: number | null) => void }) {
  const { t } = useTranslation('system');
  const [name, setName] = useState('');
  const [query, setQuery] = useState('');
  const q = useEagerQuery(deptTreeQuery(query));
  const rows = q.data?.content ?? [];
  type Node = { key: number; title: string; children?: Node[] };
  const toNodes = (list: TreeRow[]): Node[] =>
    list.map((r) => ({ key: r.id, title: String(r.name), children: r.children?.length ? toNodes(r.children) : undefined }));
  const treeKey = `${query}:${rows.length}:${parentKeys(rows).join(',')}`;
  return (
    <Card variant="borderless" className="dept-tree-card" data-testid="user-dept-tree">
      <Input.Search
        value={name}
        onChange={(e) => setName(e.target.value)}
        onSearch={(v) => setQuery(v.trim())}
        placeholder={t('user.searchDept')}
        allowClear
        data-testid="user-dept-search"
      />
      <Tree
        key={treeKey}
        treeData={toNodes(rows)}
        defaultExpandAll
        blockNode
        selectedKeys={selected ? [selected] : []}
        onSelect={(keys) => onSelect(keys.length ? Number(keys[0]) : null)}
      />
    </Card>
  );
}

/** Positions of one department (the job select follows the chosen department). */
function JobSelect({ deptId, value, onChange, id }: { deptId?: number | null; value?: number; onChange?: (v: number | null) => void; id?: string }) {
  const { t } = useTranslation('system');
  if (!deptId) return <Select id={id} disabled placeholder={t('user.chooseDeptFirst')} style={{ width: '100%' }} />;
  return <RefSelect id={id} resource="job" labelField="name" params={{ deptId, enabled: true, sort: 'sort,asc' }} value={value} onChange={onChange} placeholder={t('user.chooseJob')} />;
}

function RolesSelect({ value, onChange, myLevel, id }: { value?: number[]; onChange?: (v: number[]) => void; myLevel: number | null; id?: string }) {
  const { t } = useTranslation('system');
  const q = useContractQuery(allRoles, {});
  const roles = q.data ?? [];
  return (
    <Select
      id={id}
      mode="multiple"
      value={value}
      onChange={onChange}
      loading={q.isLoading}
      placeholder={t('user.chooseRoles')}
      options={roles.map((r) => ({ value: r.id, label: r.name, disabled: roleDisabled(Number(r.level), myLevel) }))}
      optionFilterProp="label"
      style={{ width: '100%' }}
      data-testid="user-roles"
    />
  );
}

function UserDialog({
  open,
  mode,
  record,
  dicts,
  onClose,
  onSaved,
}: {
  open: boolean;
  mode: DialogMode;
  record?: Row | null;
  dicts: DictMap;
  onClose: () => void;
  onSaved: (row?: Row) => void;
}) {
  const { t } = useTranslation('system');
  const myLevel = useMyLevel();
  const [form] = Form.useForm();
  const deptId = Form.useWatch('deptId', form);
  const initialValues = useMemo<Row>(() => {
    if (mode === 'edit' && record) {
      return {
        username: record.username,
        cname: record.cname,
        phone: record.phone,
        email: record.email,
        enabled: String(record.enabled),
        deptId: record.dept?.id ?? record.deptId,
        jobId: record.job?.id ?? record.jobId,
        roles: (record.roles ?? []).map((r: { id: number }) => r.id),
      };
    }
    // a new login is usable at once (findings W12: a default of 锁定 made logins that cannot log in)
    return { enabled: 'true', roles: [] };
  }, [mode, record]);

  return (
    <CrudDialog
      def={userResource}
      form={form}
      open={open}
      mode={mode}
      record={record}
      width={userResource.dialogWidth ?? 570}
      initialValues={initialValues}
      silentSuccess
      onValuesChange={(changed) => {
        if ('deptId' in changed) form.setFieldValue('jobId', undefined);
      }}
      toBody={(values) => {
        const body: Row = {
          username: values.username?.trim(),
          cname: values.cname?.trim(),
          phone: values.phone?.trim(),
          email: values.email?.trim(),
          enabled: values.enabled,
          deptId: values.deptId,
          jobId: values.jobId,
          dept: { id: values.deptId },
          job: { id: values.jobId },
          roles: (values.roles ?? []).map((id: number) => ({ id })),
        };
        if (mode === 'edit') body.id = record?.id;
        return body;
      }}
      onSaved={({ row }) => onSaved(row)}
      onClose={onClose}
    >
      <GridRow gutter={16}>
        <Col span={12}>
          <FieldItem def={userResource} field="username" />
        </Col>
        <Col span={12}>
          <FieldItem def={userResource} field="cname" />
        </Col>
        <Col span={12}>
          <FieldItem def={userResource} field="phone" />
        </Col>
        <Col span={12}>
          <FieldItem def={userResource} field="email" />
        </Col>
        <Col span={12}>
          <FieldItem def={userResource} field="deptId" control={<RefSelect resource="dept" labelField="name" placeholder={t('user.chooseDept')} />} />
        </Col>
        <Col span={12}>
          <FieldItem def={userResource} field="jobId" control={<JobSelect deptId={deptId} />} />
        </Col>
        <Col span={12}>
          <FieldItem def={userResource} field="enabled" dicts={dicts} />
        </Col>
        <Col span={24}>
          <Form.Item name="roles" label={t('user.roles')} required rules={[{ required: true, type: 'array', min: 1, message: t('user.rolesRequired') }]}>
            <RolesSelect myLevel={myLevel} />
          </Form.Item>
        </Col>
      </GridRow>
    </CrudDialog>
  );
}

/** The new user's initial password, shown once after '添加成功' with a copy button. */
function showDefaultPassword(t: (k: string, o?: Record<string, unknown>) => string, row: Row | undefined) {
  const password = row?.defaultPassword;
  notify.success(t('common.added'));
  if (!password) return;
  feedback.modal.success({
    title: t('user.createdTitle', { username: row?.username ?? '' }),
    content: (
      <div data-testid="user-default-password">
        <p>{t('user.defaultPasswordHint')}</p>
        <Typography.Paragraph copyable={{ text: String(password), tooltips: [t('common.copy'), t('common.copied')] }} strong code style={{ fontSize: 16 }}>
          {String(password)}
        </Typography.Paragraph>
      </div>
    ),
    okText: t('common.ok'),
    width: 440,
  });
}

export default function UserPage() {
  const { t } = useTranslation('system');
  const { hasPermission, user } = useAuth();
  const dicts = useDicts(USER_DICTS);
  const list = useResourceList(userResource);
  const [deptId, setDeptId] = useState<number | null>(null);
  const [dialog, setDialogState] = useState<{ mode: DialogMode; record?: Row } | null>(null);
  // the dialog (its form, the role list and the caller's level) is mounted when first opened, not with the page
  const [dialogUsed, setDialogUsed] = useState(false);
  const setDialog = (next: { mode: DialogMode; record?: Row } | null) => {
    if (next) setDialogUsed(true);
    setDialogState(next);
  };
  const [exporting, setExporting] = useState(false);
  const can = {
    create: hasPermission(permissionCodes(userResource, 'create')),
    edit: hasPermission(permissionCodes(userResource, 'edit')),
    delete: hasPermission(permissionCodes(userResource, 'delete')),
    export: hasPermission(contractCodes(exportUsers)),
  };

  const { page: _p, size: _s, sort: _sort, ...filters } = list.params;
  const doExport = async () => {
    setExporting(true);
    try {
      await downloadContract(exportUsers, { query: { ...filters, sort: list.params.sort } }, `${t('user.exportName')}.xlsx`);
    } catch {
      /* shown by the request layer */
    } finally {
      setExporting(false);
    }
  };
  const onExport = () => {
    if (Object.keys(filters).length) return void doExport();
    feedback.modal.confirm({ title: t('common.confirmTitle'), content: t('common.confirmExportAll'), okText: t('common.ok'), cancelText: t('common.cancel'), onOk: () => void doExport() });
  };

  return (
    <div className="split-page" data-testid="user-page">
      <div className="split-side" style={{ '--side-width': '240px' } as React.CSSProperties}>
        <DeptTree
          selected={deptId}
          onSelect={(id) => {
            setDeptId(id);
            list.search({ ...list.filters, deptId: id ?? undefined });
          }}
        />
      </div>
      <div className="split-main">
        <Card variant="borderless" className="crud-page">
          <SearchBar
            def={userResource}
            dicts={dicts}
            filters={list.filters}
            onSearch={list.search}
            fixed={{ deptId: deptId ?? undefined }}
            keyword={{ placeholder: t('user.searchPlaceholder'), testId: 'user-search', width: 220 }}
          />
          <ResourceTable
            def={userResource}
            list={list}
            dicts={dicts}
            canEdit={can.edit}
            canDelete={can.delete}
            rowDeletable={(row) => row.id !== user?.id}
            onEdit={(row) => setDialog({ mode: 'edit', record: row })}
            expandable={false}
            columns={(cols) => {
              const deptJob = {
                key: 'deptJob',
                title: t('user.deptJob'),
                width: 180,
                render: (_: unknown, row: Row) => [row.dept?.name, row.job?.name].filter(Boolean).join(' / '),
              };
              const widths: Record<string, number> = { username: 110, cname: 110, phone: 130 };
              const sized = cols.map((c) => (widths[String(c.key)] ? { ...c, width: widths[String(c.key)] } : c));
              const at = sized.findIndex((c) => c.key === 'enabled');
              return [...sized.slice(0, at), deptJob, ...sized.slice(at)];
            }}
            toolbar={
              <>
                {can.create && (
                  <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ mode: 'create' })} data-testid="crud-add">
                    {t('common.add')}
                  </Button>
                )}
                {can.export && (
                  <Button icon={<DownloadOutlined />} onClick={onExport} loading={exporting} data-testid="user-export">
                    {t('common.export')}
                  </Button>
                )}
              </>
            }
          />
        </Card>
      </div>
      {(can.create || can.edit) && dialogUsed && (
        <UserDialog
          open={!!dialog}
          mode={dialog?.mode ?? 'create'}
          record={dialog?.record}
          dicts={dicts}
          onClose={() => setDialog(null)}
          onSaved={(row) => {
            if (dialog?.mode === 'create') showDefaultPassword(t, row);
            else notify.success(t('common.updated'));
          }}
        />
      )}
    </div>
  );
}
