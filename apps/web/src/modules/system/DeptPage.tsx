import { deptResource } from '@app/shared/resources/dept';
import { SearchOutlined } from '@ant-design/icons';
import { Button, Col, Form, Input, Row as GridRow, Select, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FieldItem } from '../../crud/CrudDialog';
import { labelOf } from '../../crud/fields';
import { TreeResourcePage } from './TreeResourcePage';
import { ParentSelect } from './ParentSelect';

/** The root department every installation has; it cannot be deleted. */
const ROOT_DEPT_ID = 1;

function DeptSearch({ search, dicts }: { search: (f: Record<string, unknown>) => void; dicts: Record<string, { label: string; value: string }[]> }) {
  const { t } = useTranslation('system');
  const [name, setName] = useState('');
  const [enabled, setEnabled] = useState<string | undefined>();
  const run = () => search({ name, enabled });
  return (
    <Space wrap>
      <Input
        value={name}
        onChange={(e) => setName(e.target.value)}
        onPressEnter={run}
        placeholder={t('dept.searchName')}
        allowClear
        style={{ width: 200 }}
        data-testid="dept-search-name"
      />
      <Select
        value={enabled}
        onChange={(v) => setEnabled(v)}
        allowClear
        placeholder={t('common.status')}
        style={{ width: 120 }}
        options={(dicts.dept_status ?? []).map((e) => ({ value: e.value, label: e.label }))}
        data-testid="dept-search-enabled"
      />
      <Button type="primary" icon={<SearchOutlined />} onClick={run} data-testid="crud-search">
        {t('common.search')}
      </Button>
    </Space>
  );
}

/** Departments: tree list, name + status search, expand all; a top-level department has no status or parent. */
export default function DeptPage() {
  const { t } = useTranslation('system');
  return (
    <TreeResourcePage
      def={deptResource}
      expandAllInitially
      renderSearch={(search, _f, dicts) => <DeptSearch search={search} dicts={dicts} />}
      rowDeletable={(row) => row.id !== ROOT_DEPT_ID}
      newValues={() => ({ pid: ROOT_DEPT_ID, enabled: 'true', sort: 999 })}
      toBody={(values, mode, record) => {
        const body: Record<string, unknown> = { name: values.name, sort: values.sort ?? 999 };
        const topLevel = mode === 'edit' && record?.pid === 0;
        body.pid = topLevel ? 0 : values.pid;
        body.enabled = topLevel ? (record?.enabled ?? true) : values.enabled;
        if (mode === 'edit') body.id = record?.id;
        return body;
      }}
      renderForm={({ mode, record, dicts }) => {
        const topLevel = mode === 'edit' && record?.pid === 0;
        return (
          <GridRow gutter={16}>
            <Col span={24}>
              <FieldItem def={deptResource} field="name" />
            </Col>
            <Col span={12}>
              <FieldItem def={deptResource} field="sort" />
            </Col>
            {!topLevel && (
              <Col span={12}>
                <FieldItem def={deptResource} field="enabled" dicts={dicts} />
              </Col>
            )}
            {!topLevel && (
              <Col span={24}>
                <Form.Item name="pid" label={labelOf('dept', { name: 'pid', label: '上级部门' })} required rules={[{ required: true, message: t('dept.parentRequired') }]}>
                  <ParentSelect resource="dept" selfId={mode === 'edit' ? Number(record?.id) : null} />
                </Form.Item>
              </Col>
            )}
          </GridRow>
        );
      }}
    />
  );
}
