import { menuResource } from '@app/shared/resources/menu';
import { Col, Form, Radio, Row as GridRow, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { MenuIcon } from '../../app/icons';
import { FieldItem } from '../../crud/CrudDialog';
import { SearchBar } from '../../crud/SearchBar';
import { labelOf } from '../../crud/fields';
import { IconPicker } from './IconPicker';
import { ParentSelect } from './ParentSelect';
import { TreeResourcePage } from './TreeResourcePage';
import './system.css';

/** One keyword box (名称, 路由, 组件): the name filter is part of it. */
const MENU_FILTERS_EXCLUDED = ['name'];

/** Yes/No radio of a boolean menu option. */
function YesNo({ value, onChange, id }: { value?: boolean; onChange?: (v: boolean) => void; id?: string }) {
  const { t } = useTranslation('system');
  return (
    <Radio.Group
      id={id}
      value={value}
      onChange={(e) => onChange?.(e.target.value)}
      options={[
        { value: true, label: t('common.yes') },
        { value: false, label: t('common.no') },
      ]}
    />
  );
}

/** Menus: tree table, name search (Enter or button), icon picker, delete takes the children along. */
export default function MenuPage() {
  const { t } = useTranslation('system');
  return (
    <TreeResourcePage
      def={menuResource}
      dialogWidth={640}
      renderSearch={(search, filters) => (
        <SearchBar def={menuResource} filters={filters} onSearch={search} exclude={MENU_FILTERS_EXCLUDED} keyword={{ placeholder: t('menu.searchPlaceholder'), testId: 'menu-search', width: 240 }} />
      )}
      deleteConfirm={t('menu.confirmDelete')}
      newValues={() => ({ pid: 0, sort: 999, iframe: false, hidden: false, cache: false })}
      columns={(cols) => {
        const order = ['name', 'icon', 'sort', 'path', 'component', 'iframe', 'createTime'];
        return order.map((k) => cols.find((c) => c.key === k)).filter((c): c is NonNullable<typeof c> => !!c);
      }}
      render={{
        name: (v) => <span data-testid="menu-name">{v}</span>,
        icon: (v) => (v ? <MenuIcon name={v} /> : null),
        iframe: (v) => <Tag color={v ? 'orange' : 'default'}>{v ? t('common.yes') : t('common.no')}</Tag>,
      }}
      toBody={(values, mode, record) => {
        const body: Record<string, unknown> = {
          name: values.name,
          icon: values.icon ?? null,
          sort: values.sort,
          path: values.path ?? null,
          component: values.iframe ? null : (values.component ?? null),
          componentName: values.componentName ?? null,
          iframe: !!values.iframe,
          hidden: !!values.hidden,
          cache: !!values.cache,
          pid: values.pid ?? 0,
        };
        if (mode === 'edit') body.id = record?.id;
        return body;
      }}
      renderForm={({ mode, record }) => (
        <GridRow gutter={16}>
          <Col span={12}>
            <FieldItem def={menuResource} field="name" />
          </Col>
          <Col span={12}>
            <FieldItem def={menuResource} field="icon" control={<IconPicker />} />
          </Col>
          <Col span={8}>
            <FieldItem def={menuResource} field="iframe" control={<YesNo />} />
          </Col>
          <Col span={8}>
            <FieldItem def={menuResource} field="cache" control={<YesNo />} />
          </Col>
          <Col span={8}>
            <FieldItem def={menuResource} field="hidden" control={<YesNo />} />
          </Col>
          <Col span={12}>
            <FieldItem def={menuResource} field="sort" />
          </Col>
          <Col span={12}>
            <FieldItem def={menuResource} field="path" extra={t('menu.pathHint')} />
          </Col>
          <Form.Item noStyle shouldUpdate={(a, b) => a.iframe !== b.iframe}>
            {({ getFieldValue }) =>
              getFieldValue('iframe') ? null : (
                <>
                  <Col span={12}>
                    <FieldItem def={menuResource} field="component" extra={t('menu.componentHint')} />
                  </Col>
                  <Col span={12}>
                    <FieldItem def={menuResource} field="componentName" />
                  </Col>
                </>
              )
            }
          </Form.Item>
          <Col span={24}>
            <Form.Item name="pid" label={labelOf('menus', { name: 'pid', label: '上级菜单' })} required rules={[{ required: true, message: t('menu.parentRequired') }]}>
              <ParentSelect resource="menus" top selfId={mode === 'edit' ? Number(record?.id) : null} />
            </Form.Item>
          </Col>
        </GridRow>
      )}
    />
  );
}
