import { permissionResource } from '@app/shared/resources/permission';
import { Col, Form, Row as GridRow } from 'antd';
import { useTranslation } from 'react-i18next';
import { FieldItem } from '../../crud/CrudDialog';
import { SearchBar } from '../../crud/SearchBar';
import { labelOf } from '../../crud/fields';
import { ParentSelect } from './ParentSelect';
import { TreeResourcePage } from './TreeResourcePage';

/** One keyword box (名称, 别名): the name filter is part of it. */
const PERMISSION_FILTERS_EXCLUDED = ['name'];

/** Permission codes as a tree (`X_ALL` parents); deleting a node deletes its children. */
export default function PermissionPage() {
  const { t } = useTranslation('system');
  return (
    <TreeResourcePage
      def={permissionResource}
      renderSearch={(search, filters) => (
        <SearchBar def={permissionResource} filters={filters} onSearch={search} exclude={PERMISSION_FILTERS_EXCLUDED} keyword={{ placeholder: t('permission.searchPlaceholder'), testId: 'permission-search', width: 240 }} />
      )}
      deleteConfirm={t('permission.confirmDelete')}
      newValues={() => ({ pid: 0 })}
      toBody={(values, mode, record) => {
        const body: Record<string, unknown> = { name: values.name, alias: values.alias, pid: values.pid ?? 0 };
        if (mode === 'edit') body.id = record?.id;
        return body;
      }}
      renderForm={({ mode, record }) => (
        <GridRow gutter={16}>
          <Col xs={24} sm={12}>
            <FieldItem def={permissionResource} field="name" />
          </Col>
          <Col xs={24} sm={12}>
            <FieldItem def={permissionResource} field="alias" />
          </Col>
          <Col span={24}>
            <Form.Item
              name="pid"
              label={labelOf('permissions', { name: 'pid', label: '上级权限' })}
              required
              rules={[{ required: true, message: t('permission.parentRequired') }]}
            >
              <ParentSelect resource="permissions" labelField="alias" top selfId={mode === 'edit' ? Number(record?.id) : null} />
            </Form.Item>
          </Col>
        </GridRow>
      )}
    />
  );
}
