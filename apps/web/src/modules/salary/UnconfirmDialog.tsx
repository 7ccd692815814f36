import { Form, Input, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/** 反确认: asks for the reason the server records beside the figures it reopens. */
export function UnconfirmDialog(props: { open: boolean; month: string; onClose: () => void; onSubmit: (reason: string) => Promise<void> }) {
  const { t } = useTranslation('salary');
  const [form] = Form.useForm<{ reason: string }>();
  const [busy, setBusy] = useState(false);
  return (
    <Modal
      open={props.open}
      title={t('unconfirm.title', { month: props.month })}
      okText={t('unconfirm.button')}
      okButtonProps={{ danger: true, loading: busy, 'data-testid': 'salary-unconfirm-ok' } as never}
      cancelText={t('cancel')}
      onCancel={props.onClose}
      destroyOnHidden
      onOk={async () => {
        let reason: string;
        try {
          ({ reason } = await form.validateFields());
        } catch {
          return; // the form shows what is missing
        }
        setBusy(true);
        try {
          await props.onSubmit(reason.trim());
          form.resetFields();
        } catch {
          /* the request layer showed the server's message */
        } finally {
          setBusy(false);
        }
      }}
    >
      <Typography.Paragraph type="secondary">{t('unconfirm.hint')}</Typography.Paragraph>
      <Form form={form} layout="vertical">
        <Form.Item name="reason" label={t('unconfirm.reason')} rules={[{ required: true, whitespace: true, message: t('unconfirm.reasonRequired') }, { max: 500 }]}>
          <Input.TextArea rows={3} maxLength={500} showCount data-testid="salary-unconfirm-reason" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
