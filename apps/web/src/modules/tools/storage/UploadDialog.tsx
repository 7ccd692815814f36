import { InboxOutlined } from '@ant-design/icons';
import { Modal, Upload, type UploadProps } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../../../app/feedback';

type UploadRequestOption = Parameters<NonNullable<UploadProps['customRequest']>>[0];

/**
 * The upload dialog: one file at a time, dragged or chosen, sent with the bearer header to the given call. The
 * server checks type and size by content; its refusal is shown by the request layer as an error notification.
 */
export function UploadDialog({
  open,
  title,
  hint,
  accept,
  send,
  onClose,
  testId,
}: {
  open: boolean;
  title: string;
  hint: string;
  accept?: string;
  send: (file: File) => Promise<unknown>;
  onClose: (uploaded: boolean) => void;
  testId: string;
}) {
  const { t } = useTranslation('storage');
  const [uploaded, setUploaded] = useState(false);
  const [busy, setBusy] = useState(false);

  const customRequest = async (opts: UploadRequestOption) => {
    setBusy(true);
    try {
      await send(opts.file as File);
      opts.onSuccess?.({});
      setUploaded(true);
      notify.success(t('upload.success'));
    } catch (err) {
      opts.onError?.(err as Error);
    } finally {
      setBusy(false);
    }
  };

  const close = () => {
    onClose(uploaded);
    setUploaded(false);
  };

  return (
    <Modal open={open} title={title} onCancel={close} onOk={close} okText={t('upload.ok')} okButtonProps={{ disabled: busy }} destroyOnHidden width={550} data-testid={testId}>
      <Upload.Dragger name="file" multiple={false} maxCount={1} accept={accept} customRequest={customRequest} data-testid={`${testId}-input`}>
        <p className="ant-upload-drag-icon">
          <InboxOutlined />
        </p>
        <p className="ant-upload-text">{t('upload.drag')}</p>
        <p className="ant-upload-hint">{hint}</p>
      </Upload.Dragger>
    </Modal>
  );
}
