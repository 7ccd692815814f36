import { changeOwnPassword } from '@app/shared/contracts/userCentre';
import { Alert, Form, type FormInstance, Input, Modal } from 'antd';
import type { Rule } from 'antd/es/form';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../app/auth';
import { encryptPassword } from '../../app/crypto';
import { callContract } from '../../app/contractClient';
import { FormResetOnMount } from '../../crud/CrudDialog';
import { useApiMutation } from '../../crud/mutations';

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

/**
 * Change password: RSA-encrypted old and new password; success logs the user out after 1.5 s. `required`: the
 * password was issued by an administrator (new user, employee login) and must be changed before anything else
 * (the server refuses every other call meanwhile): no cancel, no close, and a line saying why.
 */
export function PasswordDialog({ open, onClose, required = false }: { open: boolean; onClose: () => void; required?: boolean }) {
  const { t } = useTranslation('system');
  const { logout } = useAuth();
  const [form] = Form.useForm();
  const rules = passwordRules(t, form);

  // a refusal (wrong old password...) is shown by the request layer; its field errors go onto the form
  const change = useApiMutation<unknown, { oldPass: string; newPass: string }>({
    mutationFn: async (values) => {
      const [oldPass, newPass] = await Promise.all([encryptPassword(values.oldPass), encryptPassword(values.newPass)]);
      return callContract(changeOwnPassword, { body: { oldPass, newPass } });
    },
    success: t('center.passwordChanged'),
    successSeconds: LOGOUT_DELAY_MS / 1000,
    form,
    onSuccess: () => {
      onClose();
      // Every token of this user is dead now (the server ended them): forget the session after the notice was readable.
      setTimeout(() => void logout({ revoke: false }), LOGOUT_DELAY_MS);
    },
  });
  const submit = (values: { oldPass: string; newPass: string }) => change.mutate(values);

  return (
    <Modal
      open={open}
      title={required ? t('center.initialPasswordTitle') : t('center.changePassword')}
      width={500}
      onCancel={required ? undefined : onClose}
      closable={!required}
      keyboard={!required}
      footer={required ? (_, { OkBtn }) => <OkBtn /> : undefined}
      onOk={() => form.submit()}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      confirmLoading={change.isPending}
      destroyOnHidden
      mask={{ closable: false }}
    >
      {required && <Alert type="info" showIcon title={t('center.initialPasswordHint')} style={{ marginBottom: 16 }} data-testid="initial-password-hint" />}
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
