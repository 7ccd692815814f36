import { permissionCodes } from '@app/shared/resource';
import { dictDetailResource, dictResource } from '@app/shared/resources/dict';
import { PlusOutlined } from '@ant-design/icons';
import { Button, Card, Empty } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../app/auth';
import { type DialogMode, ResourceForm } from '../../crud/CrudDialog';
import { ResourceTable } from '../../crud/ResourceTable';
import { SearchBar } from '../../crud/SearchBar';
import { type Row, useResourceList } from '../../crud/useResourceList';
import '../../crud/crud.css';
import './system.css';

/** The dictionaries are searched by one keyword box (名称, 描述); the entries by 字典标签 within the chosen one. */
const DICT_FILTERS_EXCLUDED = ['name', 'remark'];
const DETAIL_FILTERS_EXCLUDED = ['dictId'];

/** The entries of one dictionary (right-hand side). */
function DictDetails({ dict }: { dict: Row | null }) {
  const { t } = useTranslation('system');
  const { hasPermission } = useAuth();
  const list = useResourceList(dictDetailResource, {
    baseParams: dict ? { dictName: dict.name } : undefined,
    enabled: !!dict,
    defaultSort: [['sort', 'asc']],
  });
  const [dialog, setDialog] = useState<{ mode: DialogMode; record?: Row } | null>(null);
  const can = {
    create: hasPermission(permissionCodes(dictDetailResource, 'create')),
    edit: hasPermission(permissionCodes(dictDetailResource, 'edit')),
    delete: hasPermission(permissionCodes(dictDetailResource, 'delete')),
  };

  return (
    <Card title={dict ? t('dict.detailsOf', { name: dict.name }) : t('dict.details')} variant="borderless" className="crud-page" data-testid="dict-details">
      {!dict ? (
        <Empty description={t('dict.chooseHint')} data-testid="dict-hint" />
      ) : (
        <>
          <SearchBar
            key={String(dict.id)}
            def={dictDetailResource}
            filters={list.filters}
            onSearch={list.search}
            exclude={DETAIL_FILTERS_EXCLUDED}
            keyword={{ field: 'label', placeholder: t('dict.searchLabel'), testId: 'dict-detail-search' }}
          />
          <ResourceTable
            def={dictDetailResource}
            list={list}
            tableKey="dictDetail"
            canEdit={can.edit}
            canDelete={can.delete}
            onEdit={(row) => setDialog({ mode: 'edit', record: row })}
            expandable={false}
            columns={(cols) => [
              { key: 'dict', title: t('dict.dictionary'), render: (_: unknown, row: Row) => row.dict?.name ?? dict.name, width: 140 },
              ...cols.filter((c) => c.key !== 'createTime'),
            ]}
            toolbar={
              can.create && (
                <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ mode: 'create' })} data-testid="dict-detail-add">
                  {t('common.add')}
                </Button>
              )
            }
          />
          {(can.create || can.edit) && (
            <ResourceForm
              def={dictDetailResource}
              open={!!dialog}
              mode={dialog?.mode ?? 'create'}
              record={dialog?.record}
              columns={1}
              overrides={{ dictId: { hidden: true } }}
              toBody={(values, mode) => {
                const body: Row = { label: values.label, value: values.value, sort: values.sort, dictId: dict.id, dict: { id: dict.id } };
                if (mode === 'edit') body.id = dialog?.record?.id;
                return body;
              }}
              onClose={() => setDialog(null)}
            />
          )}
        </>
      )}
    </Card>
  );
}

/** Dictionaries left, the chosen dictionary's entries right (spec §2). */
export default function DictPage() {
  const { t } = useTranslation('system');
  const { hasPermission } = useAuth();
  const list = useResourceList(dictResource);
  const [selected, setSelected] = useState<Row | null>(null);
  const [dialog, setDialog] = useState<{ mode: DialogMode; record?: Row } | null>(null);
  const can = {
    create: hasPermission(permissionCodes(dictResource, 'create')),
    edit: hasPermission(permissionCodes(dictResource, 'edit')),
    delete: hasPermission(permissionCodes(dictResource, 'delete')),
  };

  return (
    <div className="split-page" data-testid="dict-page">
      <div className="split-side" style={{ '--side-width': '42%' } as React.CSSProperties}>
        <Card title={t('dict.list')} variant="borderless" className="crud-page">
          <SearchBar def={dictResource} filters={list.filters} onSearch={list.search} exclude={DICT_FILTERS_EXCLUDED} keyword={{ placeholder: t('dict.searchPlaceholder'), testId: 'dict-search' }} />
          <ResourceTable
            def={dictResource}
            list={list}
            canEdit={can.edit}
            canDelete={can.delete}
            deleteConfirm={t('dict.confirmDelete')}
            onEdit={(row) => setDialog({ mode: 'edit', record: row })}
            onDeleted={(row) => {
              if (selected?.id === row.id) setSelected(null);
            }}
            expandable={false}
            columns={(cols) => cols.filter((c) => c.key !== 'createTime')}
            onRow={(row) => ({ onClick: () => setSelected(row), className: 'crud-clickable-row' })}
            rowClassName={(row) => (row.id === selected?.id ? 'crud-selected-row crud-clickable-row' : 'crud-clickable-row')}
            toolbar={
              can.create && (
                <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ mode: 'create' })} data-testid="crud-add">
                  {t('common.add')}
                </Button>
              )
            }
          />
          {(can.create || can.edit) && (
            <ResourceForm
              def={dictResource}
              open={!!dialog}
              mode={dialog?.mode ?? 'create'}
              record={dialog?.record}
              columns={1}
              onClose={() => setDialog(null)}
              onSaved={({ mode }) => {
                // A renamed dictionary: the details panel shows (and queries) the new name.
                if (mode === 'edit' && selected && dialog?.record?.id === selected.id) setSelected(null);
              }}
            />
          )}
        </Card>
      </div>
      <div className="split-main">
        <DictDetails key={selected?.id ?? 'none'} dict={selected} />
      </div>
    </div>
  );
}
