import { kickOnline, listOnline, type OnlineSession } from '@app/shared/contracts/monitor';
import { LogoutOutlined, ReloadOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Input, Popconfirm, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../app/auth';
import { notify } from '../../app/feedback';
import { callContract, contractCodes, contractKey } from '../../app/contractClient';
import { formatDateTime } from '../../crud/format';
import '../../crud/crud.css';


/** A short browser name from the user agent (the full text is in the tooltip). */
function browserName(ua: string): string {
  const m = /(Edg|OPR|Chrome|Firefox|Safari)\/([\d]+)/.exec(ua);
  if (!m) return ua.slice(0, 30);
  const name = m[1] === 'Edg' ? 'Edge' : m[1] === 'OPR' ? 'Opera' : m[1];
  return `${name} ${m[2]}`;
}

/** 系统监控 › 在线用户: the login sessions still valid; 强退 ends one at once (its next request is refused). */
export default function OnlinePage() {
  const { t } = useTranslation('system');
  const { hasPermission } = useAuth();
  const qc = useQueryClient();
  const [filter, setFilter] = useState('');
  const list = useQuery({ queryKey: [...contractKey(listOnline), filter], queryFn: () => callContract(listOnline, { query: filter ? { filter } : {} }) });
  const kick = useMutation({
    mutationFn: (jti: string) => callContract(kickOnline, { params: { jti } }),
    onSuccess: () => {
      notify.success(t('monitor.kicked'));
      qc.invalidateQueries({ queryKey: contractKey(listOnline) });
    },
  });
  return (
    <div className="crud-page" data-testid="online-page">
      <Card variant="borderless">
        <Space style={{ marginBottom: 12 }}>
          <Input.Search allowClear placeholder={t('monitor.filter')} onSearch={(v) => setFilter(v.trim())} style={{ width: 260 }} data-testid="online-filter" />
          <Button icon={<ReloadOutlined />} onClick={() => list.refetch()}>
            {t('monitor.refresh')}
          </Button>
        </Space>
        <Table<OnlineSession>
          rowKey="jti"
          size="middle"
          loading={list.isLoading}
          dataSource={list.data?.content ?? []}
          pagination={{ pageSize: 20, showTotal: (n) => t('monitor.total', { count: n }) }}
          columns={[
            { key: 'username', title: t('monitor.username'), render: (_v, r) => <Space>{r.username}{r.current ? <Tag color="blue">{t('monitor.current')}</Tag> : null}</Space> },
            { key: 'nickName', dataIndex: 'nickName', title: t('monitor.nickName') },
            { key: 'deptName', dataIndex: 'deptName', title: t('monitor.dept') },
            { key: 'ip', dataIndex: 'ip', title: t('monitor.ip'), width: 140 },
            { key: 'browser', title: t('monitor.browser'), render: (_v, r) => <Typography.Text title={r.browser}>{browserName(r.browser)}</Typography.Text> },
            { key: 'loginTime', title: t('monitor.loginTime'), width: 170, render: (_v, r) => formatDateTime(r.loginTime) },
            { key: 'lastSeen', title: t('monitor.lastSeen'), width: 170, render: (_v, r) => formatDateTime(r.lastSeen) },
            ...(hasPermission(contractCodes(kickOnline))
              ? [
                  {
                    key: 'actions',
                    title: t('monitor.actions'),
                    width: 100,
                    render: (_v: unknown, r: OnlineSession) =>
                      r.current ? null : (
                        <Popconfirm title={t('monitor.kickConfirm', { user: r.username })} onConfirm={() => kick.mutate(r.jti)}>
                          <Button size="small" danger icon={<LogoutOutlined />} data-testid={`online-kick-${r.username}`}>
                            {t('monitor.kick')}
                          </Button>
                        </Popconfirm>
                      ),
                  },
                ]
              : []),
          ]}
        />
      </Card>
    </div>
  );
}
