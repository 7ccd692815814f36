import { Form, type FormInstance, Input, Modal } from 'antd';
import type { Rule } from 'antd/es/form';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../app/auth';
import { encryptPassword } from '../../app/crypto';
import { notify } from '../../app/feedback';
import { api } from '../../app/request';
import { FormResetOnMount } from '../../crud/CrudDialog';

/** Spec §8: the success notice stays 1.5 s, then the user is logged out. */
export const LOGOUT_DELAY_MS = 1500;

/** Spec §5 rules of the change-password form. */
export function passwordRules(t: TFunction, form: FormInstance): Record<'oldPass' | 'newPass' | 'confirmPass', Rule[]> {
  return {
    oldPass: [{ required: true, message: t('center.oldPassRequired') }],
    newPass: [
      { required: true, message: t('center.newPassRequired') },
      { min: 6, max: 20, message: t('center.passLength') },
    ],
    confirmPass: [
      { required: true, message: t('center.confirmPassRequired') },
      {
        validator: async (_r, value) => {
          if (value && value !== form.getFieldValue('newPass')) throw new Error(t('center.passMismatch'));
        },
      },
    ],
  };
}

/** Change password: RSA-encrypted old and new password; success logs the user out after 1.5 s. */
export function PasswordDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('system');
  const { logout } = useAuth();
  const [form] = Form.useForm();
  const [saving, setSaving] = useState(false);
  const rules = passwordRules(t, form);

  const submit = async (values: { oldPass: string; newPass: string }) => {
    setSaving(true);
    try {
      const [oldPass, newPass] = await Promise.all([encryptPassword(values.oldPass), encryptPassword(values.newPass)]);
      await api.post('/api/users/updatePass', { oldPass, newPass });
      notify.success(t('center.passwordChanged'), undefined, LOGOUT_DELAY_MS / 1000);
      onClose();
      // Every token of this user is dead now; leave after the notice was readable.
      setTimeout(() => void logout(), LOGOUT_DELAY_MS);
    } catch {
      /* the request layer showed the server's message (wrong old password...) */
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t('center.changePassword')}
      width={500}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      confirmLoading={saving}
      destroyOnHidden
      mask={{ closable: false }}
    >
      <Form form={form} layout="horizontal" labelCol={{ flex: '90px' }} onFinish={submit} name="change-password" data-testid="password-form">
        <Form.Item name="oldPass" label={t('center.oldPass')} rules={rules.oldPass}>
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        <Form.Item name="newPass" label={t('center.newPass')} rules={rules.newPass}>
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item name="confirmPass" label={t('center.confirmPass')} rules={rules.confirmPass} dependencies={['newPass']}>
          <Input.Password autoComplete="new-password" onPressEnter={() => form.submit()} />
        </Form.Item>
        <FormResetOnMount form={form} />
      </Form>
    </Modal>
  );
}
