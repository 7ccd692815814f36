import { BellOutlined } from '@ant-design/icons';
import { listNotices, markNoticesRead, type Notice } from '@app/shared/contracts/notices';
import { useQueryClient } from '@tanstack/react-query';
import { Badge, Button, Empty, List, Popover, Typography } from 'antd';
import type React from 'react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { contractKey, useContractMutation, useContractQuery } from '../app/contractClient';
import { formatDateTime } from '../crud/format';

const PANEL_BOX: React.CSSProperties = { width: 340, maxWidth: 'calc(100vw - 48px)', maxHeight: 420, overflowY: 'auto' };

/**
 * The header's bell (issue 25 item 2): the caller's own notices (a failed scheduled run, its auto-pause) with the
 * unread count, polled every minute; opening one marks it read and goes to its screen.
 */
export function NoticeBell() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const notices = useContractQuery(listNotices, { query: { size: 10 } }, { call: { silent: true }, refetchInterval: 60_000, refetchOnWindowFocus: true });
  const markRead = useContractMutation(markNoticesRead, { onSuccess: () => queryClient.invalidateQueries({ queryKey: contractKey(listNotices) }) });
  const unread = notices.data?.unread ?? 0;
  const items = notices.data?.content ?? [];

  const openNotice = (n: Notice) => {
    if (!n.read) markRead.mutate({ body: { ids: [n.id] } });
    setOpen(false);
    if (n.link?.startsWith('/')) navigate(n.link);
  };

  const panel = (
    <div className="app-notice-panel" data-testid="notice-panel">
      {items.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('notices.empty')} />
      ) : (
        <List
          size="small"
          dataSource={items}
          renderItem={(n) => (
            <List.Item className={n.read ? 'app-notice-read' : 'app-notice-unread'} onClick={() => openNotice(n)} style={{ cursor: 'pointer' }} data-testid="notice-item">
              <List.Item.Meta
                title={
                  <Typography.Text strong={!n.read} ellipsis={{ tooltip: n.title }}>
                    {n.title}
                  </Typography.Text>
                }
                description={
                  <>
                    <Typography.Paragraph type="secondary" ellipsis={{ rows: 2, tooltip: n.content }} style={{ marginBottom: 0 }}>
                      {n.content}
                    </Typography.Paragraph>
                    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                      {formatDateTime(n.createTime)}
                    </Typography.Text>
                  </>
                }
              />
            </List.Item>
          )}
        />
      )}
    </div>
  );

  return (
    <Popover
      open={open}
      onOpenChange={setOpen}
      trigger="click"
      // centred under the bell, which antd shifts sideways to stay on screen: on a phone the bell sits left of the
      // header's other icons, and a panel aligned to its right edge (bottomRight) started off the screen's left side
      placement="bottom"
      title={
        <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: 16 }}>
          <span>{t('notices.title')}</span>
          <Button size="small" type="link" disabled={unread === 0} loading={markRead.isPending} onClick={() => markRead.mutate({ body: {} })} data-testid="notice-read-all">
            {t('notices.markAllRead')}
          </Button>
        </div>
      }
      content={<div style={PANEL_BOX}>{panel}</div>}
    >
      <span className="app-navbar-action" role="button" aria-label={t('notices.title')} data-testid="notice-bell">
        <Badge count={unread} size="small" offset={[4, -2]} overflowCount={99}>
          <BellOutlined />
        </Badge>
      </span>
    </Popover>
  );
}
