import { serverStatus } from '@app/shared/contracts/monitor';
import { ReloadOutlined } from '@ant-design/icons';
import { Button, Card, Col, Descriptions, Progress, Row, Statistic } from 'antd';
import { useTranslation } from 'react-i18next';
import { useContractQuery } from '../../app/contractClient';
import '../../crud/crud.css';

const GB = 1024 ** 3;
const MB = 1024 ** 2;
const size = (bytes: number | null | undefined) => (bytes === null || bytes === undefined ? '-' : bytes >= GB ? `${(bytes / GB).toFixed(2)} GB` : `${(bytes / MB).toFixed(1)} MB`);
const pct = (used: number, total: number) => (total > 0 ? Math.round((used / total) * 1000) / 10 : 0);

/** 系统监控 › 服务监控: the server's CPU, memory, heap, disk, database, cache, uptime and version, every 10 s. */
export default function ServerMonitorPage() {
  const { t } = useTranslation('system');
  const q = useContractQuery(serverStatus, {}, { refetchInterval: 10_000 });
  const s = q.data;
  const duration = (sec: number) => t('monitor.duration', { d: Math.floor(sec / 86400), h: Math.floor((sec % 86400) / 3600), m: Math.floor((sec % 3600) / 60) });
  return (
    <div className="crud-page" data-testid="server-monitor-page">
      <Row gutter={[16, 16]}>
        <Col xs={24} md={6}>
          <Card size="small" loading={q.isLoading} title={t('monitor.cpu')}>
            <Progress type="dashboard" percent={s?.host.cpuUsagePercent ?? 0} format={(p) => `${p}%`} />
            <div>{t('monitor.cores', { count: s?.host.cpus ?? 0 })} · {t('monitor.load')} {s?.host.loadAverage.map((v) => v.toFixed(2)).join(' / ')}</div>
          </Card>
        </Col>
        <Col xs={24} md={6}>
          <Card size="small" loading={q.isLoading} title={t('monitor.memory')}>
            <Progress type="dashboard" percent={s ? pct(s.memory.used, s.memory.total) : 0} format={(p) => `${p}%`} />
            <div>{size(s?.memory.used)} / {size(s?.memory.total)}</div>
          </Card>
        </Col>
        <Col xs={24} md={6}>
          <Card size="small" loading={q.isLoading} title={t('monitor.heap')}>
            <Progress type="dashboard" percent={s ? pct(s.process.heapUsed, s.process.heapTotal) : 0} format={(p) => `${p}%`} />
            <div>{size(s?.process.heapUsed)} / {size(s?.process.heapTotal)} · RSS {size(s?.process.rss)}</div>
          </Card>
        </Col>
        <Col xs={24} md={6}>
          <Card size="small" loading={q.isLoading} title={t('monitor.disk')}>
            <Progress type="dashboard" percent={s?.disk ? pct(s.disk.used, s.disk.total) : 0} format={(p) => `${p}%`} />
            <div>{size(s?.disk?.used)} / {size(s?.disk?.total)}</div>
          </Card>
        </Col>
        <Col span={24}>
          <Card
            size="small"
            loading={q.isLoading}
            title={t('monitor.server')}
            extra={
              <Button size="small" icon={<ReloadOutlined />} onClick={() => q.refetch()}>
                {t('monitor.refresh')}
              </Button>
            }
          >
            <Row gutter={16} style={{ marginBottom: 16 }}>
              <Col xs={12} md={6}><Statistic title={t('monitor.version')} value={s?.version ?? '-'} /></Col>
              <Col xs={12} md={6}><Statistic title={t('monitor.uptime')} value={s ? duration(s.process.uptimeSeconds) : '-'} /></Col>
              <Col xs={12} md={6}><Statistic title={t('monitor.database')} value={s ? `${s.database.dialect} · ${size(s.database.bytes)}` : '-'} /></Col>
              <Col xs={12} md={6}><Statistic title={t('monitor.cache')} value={s?.cache.kind ?? '-'} /></Col>
            </Row>
            <Descriptions size="small" bordered column={{ xs: 1, md: 2 }}>
              <Descriptions.Item label={t('monitor.platform')}>{s ? `${s.host.platform} (${s.host.arch})` : ''}</Descriptions.Item>
              <Descriptions.Item label="Node.js">{s?.node}</Descriptions.Item>
              <Descriptions.Item label={t('monitor.hostUptime')}>{s ? duration(s.host.uptimeSeconds) : ''}</Descriptions.Item>
              <Descriptions.Item label={t('monitor.dataDir')}>{s?.disk?.path ?? '-'}</Descriptions.Item>
              <Descriptions.Item label={t('monitor.pool')}>
                {s?.database.pool ? t('monitor.poolValue', { total: s.database.pool.total ?? 0, idle: s.database.pool.idle ?? 0, waiting: s.database.pool.waiting ?? 0, max: s.database.pool.max ?? 0 }) : '-'}
              </Descriptions.Item>
              {Object.entries(s?.cache.info ?? {})
                .slice(0, 8)
                .map(([k, v]) => (
                  <Descriptions.Item key={k} label={k}>
                    {v}
                  </Descriptions.Item>
                ))}
            </Descriptions>
          </Card>
        </Col>
      </Row>
    </div>
  );
}
