import { listOwnLogs } from '@app/shared/contracts/system';
import { uploadOwnAvatar } from '@app/shared/contracts/userCentre';
import { CameraOutlined, LockOutlined, MailOutlined, UserOutlined } from '@ant-design/icons';
import { Avatar, Button, Card, Descriptions, Spin, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../app/auth';
import { notify } from '../../app/feedback';
import { uploadContract } from '../../app/contractClient';
import { formatDateTime } from '../../crud/format';
import { useApiMutation } from '../../crud/mutations';
import { LogTable } from '../monitor/LogPage';
import { EmailDialog } from './EmailDialog';
import { PasswordDialog } from './PasswordDialog';
import '../system/system.css';

const AVATAR_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];
const MAX_AVATAR_BYTES = 5 * 1024 * 1024;

/** The public URL of a stored avatar name. */
export function avatarUrl(name: string | null | undefined): string | undefined {
  return name ? `/avatar/${encodeURIComponent(name)}` : undefined;
}

function AvatarUpload() {
  const { t } = useTranslation('system');
  const { user, refresh } = useAuth();
  const avatar = useApiMutation<unknown, Blob>({
    mutationFn: (file) => {
      const data = new FormData();
      data.append('file', file);
      return uploadContract(uploadOwnAvatar, data);
    },
    success: t('center.avatarChanged'),
    // the header and this card show the new picture once the signed-in user is read again
    onSuccess: async () => {
      await refresh().catch(() => null);
    },
  });
  return (
    <div className="user-center-avatar">
      <Upload
        accept={AVATAR_TYPES.join(',')}
        showUploadList={false}
        maxCount={1}
        beforeUpload={(file) => {
          if (!AVATAR_TYPES.includes(file.type)) {
            notify.error(t('center.avatarType'));
            return Upload.LIST_IGNORE;
          }
          if (file.size > MAX_AVATAR_BYTES) {
            notify.error(t('center.avatarSize'));
            return Upload.LIST_IGNORE;
          }
          return true;
        }}
        customRequest={({ file, onSuccess, onError }) => {
          avatar.mutateAsync(file as Blob).then(
            (r) => onSuccess?.(r),
            (err) => onError?.(err as Error),
          );
        }}
      >
        <Spin spinning={avatar.isPending}>
          <Avatar size={96} src={avatarUrl(user?.avatar)} icon={<UserOutlined />} data-testid="center-avatar" />
        </Spin>
      </Upload>
      <span style={{ color: 'var(--ant-color-text-description)', fontSize: 12 }}>
        <CameraOutlined /> {t('center.avatarHint')}
      </span>
    </div>
  );
}

/** Personal centre: avatar, own details, password and e-mail dialogs, own operation log. */
export default function CenterPage() {
  const { t } = useTranslation('system');
  const { user } = useAuth();
  const [dialog, setDialog] = useState<'password' | 'email' | null>(null);
  return (
    <div className="split-page" data-testid="user-center">
      <div className="split-side" style={{ '--side-width': '340px' } as React.CSSProperties}>
        <Card title={t('center.info')} variant="borderless">
          <AvatarUpload />
          <Descriptions column={1} size="small" bordered styles={{ label: { width: 96, whiteSpace: 'nowrap' } }}>
            <Descriptions.Item label={t('center.username')}>{user?.username}</Descriptions.Item>
            <Descriptions.Item label={t('center.cname')}>{user?.cname}</Descriptions.Item>
            <Descriptions.Item label={t('center.phone')}>{user?.phone}</Descriptions.Item>
            <Descriptions.Item label={t('center.email')}>{user?.email}</Descriptions.Item>
            <Descriptions.Item label={t('center.dept')}>{[user?.dept, user?.job].filter(Boolean).join(' / ')}</Descriptions.Item>
            <Descriptions.Item label={t('center.createTime')}>{formatDateTime(user?.createTime)}</Descriptions.Item>
            <Descriptions.Item label={t('center.security')}>
              <Button type="link" size="small" icon={<LockOutlined />} onClick={() => setDialog('password')} data-testid="center-password" style={{ paddingLeft: 0 }}>
                {t('center.changePassword')}
              </Button>
              <Button type="link" size="small" icon={<MailOutlined />} onClick={() => setDialog('email')} data-testid="center-email" style={{ paddingLeft: 0 }}>
                {t('center.changeEmail')}
              </Button>
            </Descriptions.Item>
          </Descriptions>
        </Card>
      </div>
      <div className="split-main">
        <Card title={t('center.myLog')} variant="borderless">
          <LogTable url={listOwnLogs.path} tableKey="logs-user" testId="center-log" columns={['description', 'requestIp', 'time', 'createTime']} searchable={false} compact />
        </Card>
      </div>
      <PasswordDialog open={dialog === 'password'} onClose={() => setDialog(null)} />
      <EmailDialog open={dialog === 'email'} onClose={() => setDialog(null)} />
    </div>
  );
}
