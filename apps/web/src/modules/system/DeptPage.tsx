import { deptResource } from '@app/shared/resources/dept';
import { Col, Form, Row as GridRow } from 'antd';
import { useTranslation } from 'react-i18next';
import { FieldItem } from '../../crud/CrudDialog';
import { SearchBar } from '../../crud/SearchBar';
import { labelOf } from '../../crud/fields';
import { TreeResourcePage } from './TreeResourcePage';
import { ParentSelect } from './ParentSelect';

/** The root department every installation has; it cannot be deleted. */
const ROOT_DEPT_ID = 1;

/** 名称 and 状态; the parent is chosen in the tree, not searched. */
const DEPT_FILTERS_EXCLUDED = ['pid'];

/** Departments: tree list, name + status search, expand all; a top-level department has no status or parent. */
export default function DeptPage() {
  const { t } = useTranslation('system');
  return (
    <TreeResourcePage
      def={deptResource}
      expandAllInitially
      renderSearch={(search, filters, dicts) => <SearchBar def={deptResource} dicts={dicts} filters={filters} onSearch={search} exclude={DEPT_FILTERS_EXCLUDED} />}
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
            <Col xs={24} sm={12}>
              <FieldItem def={deptResource} field="sort" />
            </Col>
            {!topLevel && (
              <Col xs={24} sm={12}>
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
