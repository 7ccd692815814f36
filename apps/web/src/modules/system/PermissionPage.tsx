import { permissionResource } from '@app/shared/resources/permission';
import { SearchOutlined } from '@ant-design/icons';
import { Button, Col, Form, Input, Row as GridRow, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FieldItem } from '../../crud/CrudDialog';
import { labelOf } from '../../crud/fields';
import { ParentSelect } from './ParentSelect';
import { TreeResourcePage } from './TreeResourcePage';

function PermissionSearch({ search }: { search: (f: Record<string, unknown>) => void }) {
  const { t } = useTranslation('system');
  const [value, setValue] = useState('');
  return (
    <Space.Compact>
      <Input
        value={value}
        onChange={(e) => setValue(e.target.value)}
        onPressEnter={() => search({ blurry: value })}
        placeholder={t('permission.searchPlaceholder')}
        allowClear
        style={{ width: 240 }}
        data-testid="permission-search"
      />
      <Button type="primary" icon={<SearchOutlined />} onClick={() => search({ blurry: value })} data-testid="crud-search">
        {t('common.search')}
      </Button>
    </Space.Compact>
  );
}

/** Permission codes as a tree (`X_ALL` parents); deleting a node deletes its children. */
export default function PermissionPage() {
  const { t } = useTranslation('system');
  return (
    <TreeResourcePage
      def={permissionResource}
      renderSearch={(search) => <PermissionSearch search={search} />}
      deleteConfirm={t('permission.confirmDelete')}
      newValues={() => ({ pid: 0 })}
      toBody={(values, mode, record) => {
        const body: Record<string, unknown> = { name: values.name, alias: values.alias, pid: values.pid ?? 0 };
        if (mode === 'edit') body.id = record?.id;
        return body;
      }}
      renderForm={({ mode, record }) => (
        <GridRow gutter={16}>
          <Col span={12}>
            <FieldItem def={permissionResource} field="name" />
          </Col>
          <Col span={12}>
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
