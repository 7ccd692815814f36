import { ApiOutlined, UploadOutlined } from '@ant-design/icons';
import type { ContractResult } from '@app/shared/contracts/contract';
import { listCustomDatasources, saveDataOrigin, testDataOriginConnection, uploadDataOriginFile } from '@app/shared/contracts/operations/dataSources';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Form, Input, InputNumber, Modal, Select, Space, Typography, Upload } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../../../app/feedback';
import { callContract, uploadContract } from '../../../app/contractClient';
import { CHARACTER_ENCODINGS, DATA_SOURCE_TYPES, type DataSourceRow, type DataSourceType, SQL_KINDS } from './types';

interface FormValues {
  dataName: string;
  code?: string;
  type: DataSourceType;
  characterEncoding: string;
  dbKind?: string;
  dataBaseSite?: string;
  dataBasePort?: number;
  dataBaseUser?: string;
  dataBasePassWord?: string;
  dataBaseName?: string;
  query?: string;
  url?: string;
  customDatabase?: number;
}

/** The file shown beside the upload button: the server's upload answer, or the source's stored file. */
type Uploaded = Pick<ContractResult<typeof uploadDataOriginFile>, 'path' | 'fileName' | 'size'>;

const ACCEPT: Record<string, string> = { csv: '.csv', xls: '.xls,.xlsx' };

/**
 * 新增 / 编辑 a data source (spec §4 "Data-source type controls fields"): sql shows address, port, account,
 * password, database and the query, with 测试连接; csv and xls a file upload (the file is checked and stored at
 * once, the save reads it whole in the chosen encoding); custom a choice of custom data source. The password is
 * never sent back: the field shows ****** and a save with it unchanged keeps the stored one.
 */
export default function DataSourceDialog({ open, editing, onClose }: { open: boolean; editing: DataSourceRow | null; onClose: () => void }) {
  const { t } = useTranslation('dataSources');
  const [form] = Form.useForm<FormValues>();
  const queryClient = useQueryClient();
  const type = Form.useWatch('type', form);
  const [uploaded, setUploaded] = useState<Uploaded | null>(null);
  const [uploading, setUploading] = useState(false);

  const customs = useQuery({
    queryKey: ['customDatasource', 'all'],
    queryFn: () => callContract(listCustomDatasources, { query: { pageNumber: 1, pageSize: 999 } }),
    enabled: open && type === 'custom',
  });

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    setUploaded(null);
    if (editing) {
      form.setFieldsValue({
        dataName: editing.dataName,
        code: editing.code ?? undefined,
        type: editing.type,
        characterEncoding: editing.characterEncoding,
        dbKind: editing.dbKind ?? 'mysql',
        dataBaseSite: editing.dataBaseSite ?? undefined,
        dataBasePort: editing.dataBasePort ?? undefined,
        dataBaseUser: editing.dataBaseUser ?? undefined,
        dataBasePassWord: editing.dataBasePassWord,
        dataBaseName: editing.dataBaseName ?? undefined,
        query: editing.query ?? undefined,
        url: editing.url ?? undefined,
        customDatabase: editing.customDatabase ?? undefined,
      });
      if (editing.url) setUploaded({ path: editing.url, fileName: editing.fileName ?? editing.url, size: 0 });
    } else form.setFieldsValue({ characterEncoding: 'UTF-8', dbKind: 'mysql', dataBasePort: 3306 });
  }, [open, editing, form]);

  const save = useMutation({
    mutationFn: (values: FormValues) => callContract(saveDataOrigin, { body: { ...values, id: editing?.id } }),
    onSuccess: () => {
      notify.success(editing ? t('msg.updated') : t('msg.created'), undefined, 2);
      onClose();
      return queryClient.invalidateQueries({ queryKey: ['dataSources'] });
    },
  });
  const test = useMutation({
    mutationFn: (values: Partial<FormValues>) => callContract(testDataOriginConnection, { body: { ...values, id: editing?.id } }),
    onSuccess: (r) => notify.success(t('msg.connected', { count: r.fields.length }), undefined, 2),
  });

  const submit = async () => {
    const values = await form.validateFields();
    save.mutate(values);
  };
  const testConnection = async () => {
    const values = await form.validateFields(['dataBaseSite', 'dataBasePort', 'dataBaseUser', 'dataBaseName', 'query']);
    test.mutate({ ...values, dbKind: form.getFieldValue('dbKind'), dataBasePassWord: form.getFieldValue('dataBasePassWord') });
  };

  const required = (message: string) => [{ required: true, message }];
  return (
    <Modal
      open={open}
      title={editing ? t('editTitle') : t('addTitle')}
      width={750}
      onCancel={onClose}
      onOk={() => void submit()}
      okText={t('ok')}
      cancelText={t('cancel')}
      confirmLoading={save.isPending}
      destroyOnHidden
      data-testid="datasource-dialog"
    >
      <Form form={form} layout="horizontal" labelCol={{ span: 5 }} wrapperCol={{ span: 18 }}>
        <Form.Item name="type" label={t('field.type')} rules={required(t('rule.type'))}>
          <Select
            data-testid="datasource-type"
            options={DATA_SOURCE_TYPES.map((v) => ({ value: v, label: t(`type.${v}`) }))}
            onChange={() => {
              form.setFieldValue('url', undefined);
              setUploaded(null);
            }}
          />
        </Form.Item>
        <Form.Item name="dataName" label={t('field.dataName')} rules={required(t('rule.dataName'))}>
          <Input maxLength={50} data-testid="datasource-name" />
        </Form.Item>
        <Form.Item name="code" label={t('field.code')} extra={t('codeHint')}>
          <Input maxLength={50} />
        </Form.Item>
        <Form.Item name="characterEncoding" label={t('field.characterEncoding')} rules={required(t('rule.characterEncoding'))} extra={type === 'csv' ? t('encodingHint') : undefined}>
          <Select data-testid="datasource-encoding" options={CHARACTER_ENCODINGS.map((v) => ({ value: v, label: v }))} />
        </Form.Item>
        {type === 'sql' ? (
          <>
            <Form.Item name="dbKind" label={t('field.dbKind')}>
              <Select
                options={SQL_KINDS.map((v) => ({ value: v, label: t(`dbKind.${v}`) }))}
                onChange={(v) => form.setFieldValue('dataBasePort', v === 'postgres' ? 5432 : 3306)}
              />
            </Form.Item>
            <Form.Item label={t('field.dataBaseSite')} required>
              <Space.Compact style={{ width: '100%' }}>
                <Form.Item name="dataBaseSite" noStyle rules={required(t('rule.dataBaseSite'))}>
                  <Input style={{ width: '70%' }} placeholder={t('sitePlaceholder')} />
                </Form.Item>
                <Form.Item name="dataBasePort" noStyle rules={required(t('rule.dataBasePort'))}>
                  <InputNumber min={1} max={65535} style={{ width: '30%' }} placeholder={t('field.dataBasePort')} />
                </Form.Item>
              </Space.Compact>
            </Form.Item>
            <Form.Item name="dataBaseUser" label={t('field.dataBaseUser')} rules={required(t('rule.dataBaseUser'))}>
              <Input autoComplete="off" />
            </Form.Item>
            <Form.Item name="dataBasePassWord" label={t('field.dataBasePassWord')} extra={editing?.hasPassword ? t('passwordKeep') : undefined}>
              <Input.Password autoComplete="new-password" />
            </Form.Item>
            <Form.Item name="dataBaseName" label={t('field.dataBaseName')} rules={required(t('rule.dataBaseName'))}>
              <Input />
            </Form.Item>
            <Form.Item name="query" label={t('field.query')} rules={required(t('rule.query'))} extra={t('queryHint')}>
              <Input.TextArea rows={4} style={{ fontFamily: 'monospace' }} />
            </Form.Item>
            <Form.Item wrapperCol={{ offset: 5 }}>
              <Button icon={<ApiOutlined />} loading={test.isPending} onClick={() => void testConnection()} data-testid="datasource-test">
                {t('testConnection')}
              </Button>
            </Form.Item>
          </>
        ) : null}
        {type === 'csv' || type === 'xls' ? (
          <Form.Item
            name="url"
            label={t('field.file')}
            rules={required(t('rule.file'))}
            extra={t(type === 'csv' ? 'csvHint' : 'xlsHint')}
            // the field holds the stored path, not antd's upload event
            valuePropName="data-path"
            getValueFromEvent={(info: { file?: { response?: Uploaded } }) => info?.file?.response?.path ?? form.getFieldValue('url')}
          >
            <Upload
              accept={ACCEPT[type]}
              maxCount={1}
              showUploadList={false}
              beforeUpload={(file) => {
                const ok = type === 'csv' ? /\.csv$/i.test(file.name) : /\.xlsx?$/i.test(file.name);
                if (!ok) {
                  notify.error(t(type === 'csv' ? 'rule.csvOnly' : 'rule.xlsOnly'));
                  return Upload.LIST_IGNORE;
                }
                return true;
              }}
              customRequest={async ({ file, onSuccess, onError }) => {
                setUploading(true);
                try {
                  const data = new FormData();
                  data.append('file', file as Blob);
                  const r = await uploadContract(uploadDataOriginFile, data);
                  setUploaded(r);
                  form.setFieldValue('url', r.path);
                  form.validateFields(['url']).catch(() => undefined);
                  notify.success(t('msg.uploaded'), undefined, 2);
                  onSuccess?.(r);
                } catch (err) {
                  onError?.(err as Error);
                } finally {
                  setUploading(false);
                }
              }}
            >
              <Space>
                <Button icon={<UploadOutlined />} loading={uploading} data-testid="datasource-upload">
                  {t('chooseFile')}
                </Button>
                {uploaded ? <Typography.Text data-testid="datasource-file">{uploaded.fileName}</Typography.Text> : null}
              </Space>
            </Upload>
          </Form.Item>
        ) : null}
        {type === 'custom' ? (
          <Form.Item name="customDatabase" label={t('field.customDatabase')} rules={required(t('rule.customDatabase'))}>
            <Select
              loading={customs.isLoading}
              options={(customs.data?.content ?? []).map((c) => ({ value: c.id, label: `${c.name}（${c.datasetName}）` }))}
              notFoundContent={t('noCustom')}
            />
          </Form.Item>
        ) : null}
      </Form>
    </Modal>
  );
}
