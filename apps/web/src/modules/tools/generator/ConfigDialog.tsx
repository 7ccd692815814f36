import { type GenConfigView, getGenConfig, updateGenConfig } from '@app/shared/contracts/generator';
import { Form, Input, Modal, Switch } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../../app/auth';
import { callContract, contractCodes, useContractQuery } from '../../../app/contractClient';
import { useApiMutation } from '../../../crud/mutations';
import { GENERATOR_READS } from './generatorModel';

/** The generator's configuration (the getGenConfig and updateGenConfig contracts) with the spec's messages. */
export function ConfigDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('tools');
  const { hasPermission } = useAuth();
  const canEdit = hasPermission(contractCodes(updateGenConfig));
  const [form] = Form.useForm<GenConfigView>();
  const q = useContractQuery(getGenConfig, {});
  useEffect(() => {
    if (q.data) form.setFieldsValue(q.data);
  }, [q.data, form]);
  const saveConfig = useApiMutation<unknown, GenConfigView>({
    mutationFn: (values) => callContract(updateGenConfig, { body: values }),
    success: t('generator.saved'),
    invalidate: GENERATOR_READS,
    onSuccess: () => onClose(),
  });
  const saving = saveConfig.isPending;
  const submit = async () => {
    const values = await form.validateFields();
    saveConfig.mutate(values);
  };
  const folderRule = { pattern: /^[A-Za-z0-9_\-./]+$/, message: t('generator.folderRule') };
  return (
    <Modal open width={620} title={t('generator.config')} onCancel={onClose} onOk={submit} okButtonProps={{ loading: saving, disabled: !canEdit, 'data-testid': 'gen-config-save' } as never} destroyOnHidden>
      <Form form={form} labelCol={{ span: 7 }} wrapperCol={{ span: 16 }} disabled={!canEdit}>
        <Form.Item name="author" label={t('generator.author')} rules={[{ required: true, whitespace: true, message: t('generator.authorRequired') }]}>
          <Input maxLength={50} data-testid="gen-config-author" />
        </Form.Item>
        <Form.Item name="pack" label={t('generator.pack')} extra={t('generator.packHint')} rules={[{ required: true, message: t('generator.packRequired') }, folderRule]}>
          <Input />
        </Form.Item>
        <Form.Item name="moduleName" label={t('generator.moduleName')} extra={t('generator.moduleNameHint')} rules={[{ required: true, message: t('generator.packRequired') }, folderRule]}>
          <Input />
        </Form.Item>
        <Form.Item name="path" label={t('generator.path')} extra={t('generator.pathHint')} rules={[{ required: true, message: t('generator.pathRequired') }, folderRule]}>
          <Input />
        </Form.Item>
        <Form.Item name="apiPath" label={t('generator.apiPath')} extra={t('generator.apiPathHint')} rules={[{ required: true, message: t('generator.apiPathRequired') }, folderRule]}>
          <Input />
        </Form.Item>
        <Form.Item name="prefix" label={t('generator.prefix')} extra={t('generator.prefixHint')} rules={[{ pattern: /^[A-Za-z0-9_]*$/, message: t('generator.prefixRule') }]}>
          <Input maxLength={50} />
        </Form.Item>
        <Form.Item name="menuParent" label={t('generator.menuParent')} extra={t('generator.menuParentHint')} rules={[{ pattern: /^[A-Za-z0-9_-]*$/, message: t('generator.menuParentRule') }]}>
          <Input maxLength={100} />
        </Form.Item>
        <Form.Item name="menuIcon" label={t('generator.menuIcon')} rules={[{ pattern: /^[A-Za-z]*$/, message: t('generator.menuIconRule') }]}>
          <Input maxLength={50} />
        </Form.Item>
        <Form.Item name="cover" label={t('generator.cover')} valuePropName="checked" extra={t('generator.coverHint')}>
          <Switch />
        </Form.Item>
      </Form>
    </Modal>
  );
}
