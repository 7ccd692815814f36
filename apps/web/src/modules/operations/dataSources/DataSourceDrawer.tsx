import { dataOriginDetails } from '@app/shared/contracts/operations/dataSources';
import { useQuery } from '@tanstack/react-query';
import { Alert, Descriptions, Drawer, Empty, Skeleton, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { callContract } from '../../../app/contractClient';
import { formatDateTime } from '../../../crud/format';

/** 详情: the source's settings, its fields and the first 10 rows, read now (a broken source shows why). */
export default function DataSourceDrawer({ id, onClose }: { id: number | null; onClose: () => void }) {
  const { t } = useTranslation('dataSources');
  const details = useQuery({
    queryKey: ['dataSources', 'details', id],
    queryFn: () => callContract(dataOriginDetails, { query: { id } }, { silent: true }),
    enabled: id !== null,
  });
  const d = details.data;
  return (
    <Drawer open={id !== null} onClose={onClose} size={860} title={d ? d.dataName : t('details')} destroyOnHidden data-testid="datasource-drawer">
      {details.isLoading ? <Skeleton active /> : null}
      {details.error ? <Alert type="error" showIcon title={(details.error as Error).message} /> : null}
      {d ? (
        <>
          <Descriptions size="small" column={2} bordered style={{ marginBottom: 16 }}>
            <Descriptions.Item label={t('field.type')}>
              <Tag>{t(`type.${d.type}`)}</Tag>
            </Descriptions.Item>
            <Descriptions.Item label={t('field.characterEncoding')}>{d.characterEncoding}</Descriptions.Item>
            {d.type === 'sql' ? (
              <>
                <Descriptions.Item label={t('field.dataBaseSite')}>
                  {d.dbKind} · {d.dataBaseSite}:{d.dataBasePort}
                </Descriptions.Item>
                <Descriptions.Item label={t('field.dataBaseName')}>{d.dataBaseName}</Descriptions.Item>
                <Descriptions.Item label={t('field.dataBaseUser')}>{d.dataBaseUser}</Descriptions.Item>
                <Descriptions.Item label={t('field.dataBasePassWord')}>{d.hasPassword ? t('passwordStored') : t('passwordNone')}</Descriptions.Item>
                <Descriptions.Item label={t('field.query')} span={2}>
                  <code style={{ whiteSpace: 'pre-wrap' }}>{d.query}</code>
                </Descriptions.Item>
              </>
            ) : null}
            {d.type === 'csv' || d.type === 'xls' ? (
              <>
                <Descriptions.Item label={t('field.file')}>{d.fileName}</Descriptions.Item>
                <Descriptions.Item label={t('field.rowCount')}>{d.rowCount ?? '-'}</Descriptions.Item>
              </>
            ) : null}
            {d.type === 'custom' ? <Descriptions.Item label={t('field.customDatabase')}>{d.customDatabaseName}</Descriptions.Item> : null}
            <Descriptions.Item label={t('field.createBy')}>{d.createBy}</Descriptions.Item>
            <Descriptions.Item label={t('field.updateTime')}>{formatDateTime(d.updateTime)}</Descriptions.Item>
          </Descriptions>
          <h4>{t('fields', { count: d.tableData.length })}</h4>
          <div style={{ marginBottom: 16 }} data-testid="datasource-fields">
            {d.tableData.map((f) => (
              <Tag key={f.fieldName} style={{ marginBottom: 4 }}>
                {f.fieldName}
              </Tag>
            ))}
          </div>
          <h4>{t('preview')}</h4>
          {d.pvError ? <Alert type="warning" showIcon title={t('previewFailed')} description={d.pvError} style={{ marginBottom: 12 }} data-testid="datasource-preview-error" /> : null}
          {d.pvData.length ? (
            <Table
              size="small"
              rowKey={(_, i) => String(i)}
              pagination={false}
              scroll={{ x: 'max-content' }}
              data-testid="datasource-preview"
              dataSource={d.pvData}
              columns={d.tableData.map((f) => ({
                key: f.fieldName,
                dataIndex: f.fieldName,
                title: f.fieldName,
                render: (v: unknown) => (v === null || v === undefined ? '' : String(v)),
              }))}
            />
          ) : d.pvError ? null : (
            <Empty description={t('noRows')} />
          )}
        </>
      ) : null}
    </Drawer>
  );
}
