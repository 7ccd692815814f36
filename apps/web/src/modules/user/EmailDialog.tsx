import { changeOwnEmail, sendEmailCode } from '@app/shared/contracts/userCentre';
import { Button, Form, Input, Modal, Space } from 'antd';
import type { Rule } from 'antd/es/form';
import type { TFunction } from 'i18next';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../app/auth';
import { encryptPassword } from '../../app/crypto';
import { callContract } from '../../app/contractClient';
import { FormResetOnMount } from '../../crud/CrudDialog';
import { useApiMutation } from '../../crud/mutations';

/** Spec §9: the send-code button waits 60 s before the next code. */
export const RESEND_SECONDS = 60;
const EMAIL_RE = /^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$/;

/** Spec §5 rules of the change-e-mail form. */
export function emailRules(t: TFunction, currentEmail: string | null | undefined): Record<'email' | 'code' | 'pass', Rule[]> {
  return {
    email: [
      { required: true, message: t('center.emailRequired') },
      {
        validator: async (_r, value: string) => {
          if (!value) return;
          if (currentEmail && value.trim().toLowerCase() === currentEmail.toLowerCase()) throw new Error(t('center.emailSame'));
          if (!EMAIL_RE.test(value.trim())) throw new Error(t('center.emailInvalid'));
        },
      },
    ],
    code: [{ required: true, message: t('center.codeRequired') }],
    pass: [{ required: true, message: t('center.currentPassRequired') }],
  };
}

type SendState = { kind: 'idle' } | { kind: 'sending' } | { kind: 'wait'; seconds: number } | { kind: 'again' };

/** The send-code button: idle -> 验证码发送中 -> {n}秒后重新发送 (60 s, disabled) -> 重新发送. */
function useSendCode() {
  const [state, setState] = useState<SendState>({ kind: 'idle' });
  const timer = useRef<ReturnType<typeof setInterval> | null>(null);
  const stop = () => {
    if (timer.current) clearInterval(timer.current);
    timer.current = null;
  };
  useEffect(
    () => () => {
      if (timer.current) clearInterval(timer.current);
    },
    [],
  );
  const startCountdown = () => {
    stop();
    let left = RESEND_SECONDS;
    setState({ kind: 'wait', seconds: left });
    timer.current = setInterval(() => {
      left -= 1;
      if (left <= 0) {
        stop();
        setState({ kind: 'again' });
      } else setState({ kind: 'wait', seconds: left });
    }, 1000);
  };
  return { state, setState, startCountdown };
}

/** Change e-mail: a code is sent to the new address; current password (RSA-encrypted) confirms. */
export function EmailDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('system');
  const { user, refresh } = useAuth();
  const [form] = Form.useForm();
  const send = useSendCode();
  const rules = emailRules(t, user?.email);
  const code = useApiMutation<unknown, string>({
    mutationFn: (email) => callContract(sendEmailCode, { body: { type: 'email', value: email } }),
    success: t('center.codeSent'),
    onSuccess: () => send.startCountdown(),
    // the request layer showed why; the button offers to send again
    onError: () => send.setState({ kind: 'again' }),
  });
  const change = useApiMutation<unknown, { email: string; code: string; pass: string }>({
    mutationFn: async (values) => {
      const password = await encryptPassword(values.pass);
      return callContract(changeOwnEmail, { params: { code: values.code.trim() }, body: { email: values.email.trim(), password } });
    },
    success: t('center.emailChanged'),
    form,
    // the dialog closes once the signed-in user shows the new address
    onSuccess: async () => {
      await refresh().catch(() => null);
      onClose();
    },
  });

  const sendCode = async () => {
    const email = String(form.getFieldValue('email') ?? '').trim();
    // Spec §5: nothing happens for an empty address or the current one.
    if (!email || (user?.email && email.toLowerCase() === user.email.toLowerCase())) return;
    try {
      await form.validateFields(['email']);
    } catch {
      return;
    }
    send.setState({ kind: 'sending' });
    code.mutate(email);
  };

  const submit = (values: { email: string; code: string; pass: string }) => change.mutate(values);

  const s = send.state;
  const sendLabel =
    s.kind === 'sending' ? t('center.codeSending') : s.kind === 'wait' ? t('center.codeWait', { n: s.seconds }) : s.kind === 'again' ? t('center.codeResend') : t('center.codeSend');

  return (
    <Modal
      open={open}
      title={t('center.changeEmail')}
      width={500}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      confirmLoading={change.isPending}
      destroyOnHidden
      mask={{ closable: false }}
    >
      <Form form={form} layout="horizontal" labelCol={{ flex: '90px' }} onFinish={submit} name="change-email" data-testid="email-form">
        <Form.Item label={t('center.newEmail')} required>
          <Space.Compact style={{ width: '100%' }}>
            <Form.Item name="email" rules={rules.email} noStyle>
              <Input autoComplete="email" data-testid="email-new" />
            </Form.Item>
            <Button onClick={sendCode} loading={s.kind === 'sending'} disabled={s.kind === 'wait' || s.kind === 'sending'} data-testid="email-send-code">
              {sendLabel}
            </Button>
          </Space.Compact>
        </Form.Item>
        <Form.Item name="code" label={t('center.code')} rules={rules.code}>
          <Input autoComplete="one-time-code" maxLength={6} />
        </Form.Item>
        <Form.Item name="pass" label={t('center.currentPass')} rules={rules.pass}>
          <Input.Password autoComplete="current-password" onPressEnter={() => form.submit()} />
        </Form.Item>
        <FormResetOnMount form={form} />
      </Form>
    </Modal>
  );
}
