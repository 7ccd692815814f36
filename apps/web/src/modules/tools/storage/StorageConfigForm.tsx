import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Form, Input, Radio, Select, Spin } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../../app/auth';
import { notify } from '../../../app/feedback';
import { BUCKET_TYPES, CONFIG_EDIT, type StorageConfig, storageApi, ZONES } from './api';

/** The 配置 tab: local disk, or a Qiniu / S3-compatible bucket. The secret key is write-only (shown masked). */
export function StorageConfigForm() {
  const { t } = useTranslation('storage');
  const { hasPermission } = useAuth();
  const canEdit = hasPermission(CONFIG_EDIT);
  const queryClient = useQueryClient();
  const [form] = Form.useForm<StorageConfig>();
  const provider = Form.useWatch('provider', form);
  const config = useQuery({ queryKey: ['storage', 'config'], queryFn: storageApi.config });

  useEffect(() => {
    if (config.data) form.setFieldsValue(config.data);
  }, [config.data, form]);

  const save = useMutation({
    mutationFn: (values: StorageConfig) => storageApi.saveConfig(values),
    onSuccess: () => {
      notify.success(t('config.saved'));
      return queryClient.invalidateQueries({ queryKey: ['storage'] });
    },
  });

  const required = (label: string) => ({ required: true, whitespace: true, message: t('config.required', { label }) });
  const isS3 = provider === 's3';
  return (
    <Spin spinning={config.isLoading}>
      <Form
        form={form}
        layout="horizontal"
        labelCol={{ flex: '130px' }}
        wrapperCol={{ flex: 'auto' }}
        style={{ maxWidth: 640 }}
        disabled={!canEdit}
        onFinish={(values) => save.mutate(values)}
        data-testid="storage-config-form"
        initialValues={{ provider: 'local', zone: '华东', type: '私有' }}
      >
        <Form.Item name="provider" label={t('config.provider')}>
          <Radio.Group
            options={[
              { value: 'local', label: t('config.local') },
              { value: 's3', label: t('config.s3') },
            ]}
            data-testid="storage-provider"
          />
        </Form.Item>
        {!isS3 && <Alert type="info" showIcon title={t('config.localHint')} style={{ marginBottom: 16 }} />}
        {isS3 && (
          <>
            <Form.Item name="accessKey" label={t('config.accessKey')} rules={[required(t('config.accessKey'))]}>
              <Input autoComplete="off" maxLength={200} data-testid="storage-access-key" />
            </Form.Item>
            <Form.Item
              name="secretKey"
              label={t('config.secretKey')}
              rules={config.data?.hasSecret ? [] : [required(t('config.secretKey'))]}
              extra={config.data?.hasSecret ? t('config.secretKeyKept') : undefined}
            >
              <Input.Password autoComplete="new-password" maxLength={200} data-testid="storage-secret-key" />
            </Form.Item>
            <Form.Item name="bucket" label={t('config.bucket')} rules={[required(t('config.bucket'))]}>
              <Input maxLength={100} data-testid="storage-bucket" />
            </Form.Item>
            <Form.Item
              name="host"
              label={t('config.host')}
              extra={t('config.hostHint')}
              rules={[required(t('config.host')), { pattern: /^https?:\/\/[^\s/]+/i, message: t('config.hostInvalid') }]}
            >
              <Input maxLength={255} placeholder="https://" data-testid="storage-host" />
            </Form.Item>
            <Form.Item name="zone" label={t('config.zone')} rules={[{ required: true }]}>
              <Select options={ZONES.map((z) => ({ value: z, label: z }))} data-testid="storage-zone" />
            </Form.Item>
            <Form.Item name="type" label={t('config.type')} rules={[{ required: true, message: t('config.typeRequired') }]}>
              <Radio.Group
                options={BUCKET_TYPES.map((v) => ({ value: v, label: v === '公开' ? t('config.public') : t('config.private') }))}
                data-testid="storage-type"
              />
            </Form.Item>
            <Form.Item name="endpoint" label={t('config.endpoint')} extra={t('config.endpointHint')} rules={[{ pattern: /^(https?:\/\/[^\s/]+.*)?$/i, message: t('config.hostInvalid') }]}>
              <Input maxLength={255} placeholder="https://" data-testid="storage-endpoint" />
            </Form.Item>
          </>
        )}
        {canEdit && (
          <Form.Item label=" " colon={false}>
            <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="storage-config-save">
              {t('config.save')}
            </Button>
          </Form.Item>
        )}
      </Form>
    </Spin>
  );
}
