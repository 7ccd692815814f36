import { BugOutlined } from '@ant-design/icons';
import { Badge, Button, Empty, List, Modal, Tooltip, Typography } from 'antd';
import { useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { clearErrors, getErrors, subscribeErrors } from '../app/errorLog';
// U19: one date format everywhere (yyyy-MM-dd HH:mm:ss), not the browser's locale (2026/11/26)
import { formatDateTime } from '../crud/format';

/** Navbar badge with the client errors of this session; hidden while there are none. */
export function ErrorLogButton() {
  const { t } = useTranslation();
  const errors = useSyncExternalStore(subscribeErrors, getErrors, getErrors);
  const [open, setOpen] = useState(false);
  if (errors.length === 0 && !open) return null;
  return (
    <>
      <Tooltip title={t('errorLog.title')} placement="bottom">
        <span className="app-navbar-action" role="button" aria-label={t('errorLog.title')} onClick={() => setOpen(true)} data-testid="error-log">
          <Badge count={errors.length} size="small" offset={[4, -2]}>
            <BugOutlined className="app-error-log-icon" />
          </Badge>
        </span>
      </Tooltip>
      <Modal
        open={open}
        title={t('errorLog.title')}
        width={760}
        onCancel={() => setOpen(false)}
        footer={[
          <Button key="clear" danger onClick={() => clearErrors()}>
            {t('errorLog.clear')}
          </Button>,
          <Button key="close" type="primary" onClick={() => setOpen(false)}>
            {t('actions.close')}
          </Button>,
        ]}
      >
        {errors.length === 0 ? (
          <Empty description={t('errorLog.empty')} />
        ) : (
          <List
            size="small"
            dataSource={errors}
            renderItem={(e) => (
              <List.Item>
                <div style={{ width: '100%' }}>
                  <Typography.Text type="danger" strong>
                    {e.message}
                  </Typography.Text>
                  <div>
                    <Typography.Text type="secondary">
                      {formatDateTime(e.time)} · {e.url}
                    </Typography.Text>
                  </div>
                  {e.stack && <pre className="app-error-stack">{e.stack}</pre>}
                </div>
              </List.Item>
            )}
          />
        )}
      </Modal>
    </>
  );
}
