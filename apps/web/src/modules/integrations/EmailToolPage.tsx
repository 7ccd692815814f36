import { DeleteOutlined, PlusOutlined, SendOutlined } from '@ant-design/icons';
import { emailSettings, listEmailLogs, MAX_RECIPIENTS, saveEmailSettings, sendEmail, testEmailSettings } from '@app/shared/contracts/email';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Checkbox, Col, Form, Input, InputNumber, Row, Select, Space, Switch, Tabs, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../app/auth';
import { notify } from '../../app/feedback';
import { contractCodes, contractKey, useContractMutation, useContractQuery } from '../../app/contractClient';
import { RichTextEditor } from './RichTextEditor';
import { ServerPagedTable } from './ServerPagedTable';
import './integrations.css';
// U19: one date format everywhere (yyyy-MM-dd HH:mm:ss), not the browser's locale (2026/11/26)
import { formatDateTime } from '../../crud/format';
import { SearchItem } from '../../crud/SearchBar';
import { ListToolbar } from '../../crud/usePagedList';

/** 系统工具 › 邮件工具: tabs 配置 / 发送（默认）/ 发送记录 / 使用说明 (spec §2, §3 Mail config, §5 E-mail sending). */

/** Mail providers most offices here use: all want SSL on 465 and an authorization code as the password. */
export const MAIL_PRESETS = [
  { key: 'qq', host: 'smtp.qq.com', port: 465, sslEnable: true },
  { key: '163', host: 'smtp.163.com', port: 465, sslEnable: true },
  { key: 'exmail', host: 'smtp.exmail.qq.com', port: 465, sslEnable: true },
  { key: 'aliyun', host: 'smtp.qiye.aliyun.com', port: 465, sslEnable: true },
] as const;

export { MAX_RECIPIENTS };
const EMAIL_RE = /^[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}$/;
const MASK = '******';

function SettingsTab() {
  const { t } = useTranslation('integrations');
  const { hasPermission } = useAuth();
  const canEdit = hasPermission(contractCodes(saveEmailSettings));
  const [form] = Form.useForm();
  const qc = useQueryClient();
  const q = useContractQuery(emailSettings, {});
  const stored = !!q.data?.pass;
  useEffect(() => {
    if (q.data) form.setFieldsValue({ ...q.data, pass: q.data.pass ? MASK : '', port: q.data.port ?? 465 });
  }, [q.data, form]);

  const save = useContractMutation(saveEmailSettings, {
    onSuccess: () => {
      notify.success(t('common.updated'));
      qc.invalidateQueries({ queryKey: contractKey(emailSettings) });
    },
  });
  const test = useContractMutation(testEmailSettings, { onSuccess: () => notify.success(t('email.testOk')) });

  const applyPreset = (key: string) => {
    const p = MAIL_PRESETS.find((x) => x.key === key);
    if (p) form.setFieldsValue({ host: p.host, port: p.port, sslEnable: p.sslEnable });
  };

  return (
    <Row gutter={24}>
      <Col xs={24} lg={14}>
        <Form
          form={form}
          layout="horizontal"
          labelCol={{ flex: '110px' }}
          disabled={!canEdit}
          name="email-settings"
          data-testid="email-settings"
          onFinish={(v) => save.mutate({ body: { ...v, id: 1 } })}
          initialValues={{ port: 465, sslEnable: true }}
        >
          <Form.Item label={t('email.preset')}>
            <Select
              allowClear
              placeholder={t('email.presetPlaceholder')}
              onChange={applyPreset}
              data-testid="email-preset"
              options={MAIL_PRESETS.map((p) => ({ value: p.key, label: t(`email.presets.${p.key}`) }))}
            />
          </Form.Item>
          <Form.Item
            name="fromUser"
            label={t('email.fromUser')}
            rules={[
              { required: true, message: t('email.fromUserRequired') },
              { pattern: EMAIL_RE, message: t('email.emailInvalid') },
            ]}
          >
            <Input autoComplete="off" data-testid="email-fromUser" />
          </Form.Item>
          <Form.Item name="user" label={t('email.user')} rules={[{ required: true, message: t('email.userRequired') }]}>
            <Input autoComplete="off" data-testid="email-user" />
          </Form.Item>
          <Form.Item
            name="pass"
            label={t('email.pass')}
            extra={t('email.passHint')}
            rules={[{ required: !stored, message: t('email.passRequired') }]}
          >
            <Input.Password autoComplete="new-password" placeholder={stored ? t('email.passKept') : ''} data-testid="email-pass" />
          </Form.Item>
          <Form.Item name="host" label={t('email.host')} rules={[{ required: true, message: t('email.hostRequired') }]}>
            <Input placeholder="smtp.qq.com" data-testid="email-host" />
          </Form.Item>
          <Form.Item name="port" label={t('email.port')} rules={[{ required: true, message: t('email.portRequired') }]}>
            <InputNumber min={1} max={65535} precision={0} style={{ width: 160 }} data-testid="email-port" />
          </Form.Item>
          <Form.Item name="sslEnable" label={t('email.ssl')} valuePropName="checked" extra={t('email.sslHint')}>
            <Switch data-testid="email-ssl" />
          </Form.Item>
          <Form.Item label=" " colon={false}>
            <Space>
              <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="email-save">
                {t('common.save')}
              </Button>
              <Button
                loading={test.isPending}
                data-testid="email-test"
                onClick={async () => {
                  const values = await form.validateFields().catch(() => null);
                  if (values) test.mutate({ body: { ...values, id: 1 } });
                }}
              >
                {t('email.test')}
              </Button>
            </Space>
          </Form.Item>
        </Form>
      </Col>
      <Col xs={24} lg={10}>
        <Alert type="info" showIcon title={t('email.authCodeTitle')} description={t('email.authCodeHint')} />
      </Col>
    </Row>
  );
}

function SendTab() {
  const { t } = useTranslation('integrations');
  const { hasPermission } = useAuth();
  const canSend = hasPermission(contractCodes(sendEmail));
  const [form] = Form.useForm();
  const qc = useQueryClient();
  const send = useContractMutation(sendEmail, {
    onSuccess: (r) => {
      if (r.failed.length) notify.warning(t('email.partial', { sent: r.sent, failed: r.failed.map((f) => f.to).join(', ') }), undefined, 6);
      else notify.success(t('email.sent'));
      form.setFieldsValue({ subject: '', content: '' });
      qc.invalidateQueries({ queryKey: contractKey(listEmailLogs) });
    },
  });
  return (
    <Form
      form={form}
      layout="horizontal"
      labelCol={{ flex: '90px' }}
      name="email-send"
      data-testid="email-send-form"
      disabled={!canSend}
      initialValues={{ tos: [''], content: '', separately: true }}
      onFinish={(v) => send.mutate({ body: { subject: v.subject.trim(), tos: v.tos.map((x: string) => x.trim()), content: v.content ?? '', separately: !!v.separately } })}
    >
      <Form.Item name="subject" label={t('email.subject')} rules={[{ required: true, whitespace: true, message: t('email.subjectRequired') }]}>
        <Input maxLength={200} data-testid="email-subject" />
      </Form.Item>
      <Form.List
        name="tos"
        rules={[
          {
            validator: async (_r, tos: string[]) => {
              if (!tos || tos.length < 1) throw new Error(t('email.keepOne'));
            },
          },
        ]}
      >
        {(fields, { add, remove }, { errors }) => (
          <>
            {fields.map((field, i) => (
              <Form.Item key={field.key} label={i === 0 ? t('email.tos') : ' '} colon={i === 0} required={i === 0}>
                <Space.Compact style={{ width: '100%', maxWidth: 520 }}>
                  <Form.Item
                    name={field.name}
                    noStyle
                    validateTrigger={['onChange', 'onBlur']}
                    rules={[
                      { required: true, whitespace: true, message: t('email.toRequired') },
                      { pattern: EMAIL_RE, message: t('email.toInvalid'), transform: (v: string) => v?.trim() },
                    ]}
                  >
                    <Input placeholder="name@example.com" data-testid={`email-to-${i}`} />
                  </Form.Item>
                  <Button
                    icon={<DeleteOutlined />}
                    aria-label={t('email.removeTo')}
                    onClick={() => (fields.length > 1 ? remove(field.name) : notify.warning(t('email.keepOne')))}
                    data-testid={`email-to-remove-${i}`}
                  />
                </Space.Compact>
              </Form.Item>
            ))}
            <Form.Item label=" " colon={false}>
              <Button type="dashed" icon={<PlusOutlined />} disabled={fields.length >= MAX_RECIPIENTS} onClick={() => add('')} data-testid="email-to-add">
                {t('email.addTo')}
              </Button>
              <Form.ErrorList errors={errors} />
            </Form.Item>
          </>
        )}
      </Form.List>
      <Form.Item
        name="content"
        label={t('email.content')}
        rules={[
          {
            validator: async (_r, html: string) => {
              const text = (html ?? '').replace(/<img\b/gi, 'x<').replace(/<[^>]*>/g, '').replace(/&nbsp;|\s/g, '');
              if (!text) throw new Error(t('email.contentRequired'));
            },
          },
        ]}
      >
        <RichTextEditor placeholder={t('email.contentPlaceholder')} />
      </Form.Item>
      <Form.Item name="separately" label=" " colon={false} valuePropName="checked" extra={t('email.separatelyHint')}>
        <Checkbox data-testid="email-separately">{t('email.separately')}</Checkbox>
      </Form.Item>
      <Form.Item label=" " colon={false}>
        <Button type="primary" htmlType="submit" icon={<SendOutlined />} loading={send.isPending} data-testid="email-send">
          {t('email.send')}
        </Button>
      </Form.Item>
    </Form>
  );
}

function LogTab() {
  const { t } = useTranslation('integrations');
  const queryClient = useQueryClient();
  const [filters, setFilters] = useState<{ blurry?: string; status?: string }>({});
  return (
    <>
      {/* U19: the labelled filter row and toolbar of every list: subject or recipient, and the sending state */}
      <ListToolbar
        ns="crud"
        search={{ label: t('email.log.search'), placeholder: t('email.log.searchHint'), onSearch: (blurry) => setFilters((f) => ({ ...f, blurry: blurry || undefined })), testId: 'email-logs-search', width: 240 }}
        filters={
          <SearchItem label={t('email.log.status')}>
            <Select
              allowClear
              style={{ width: 120 }}
              placeholder={t('email.log.all')}
              value={filters.status}
              onChange={(status?: string) => setFilters((f) => ({ ...f, status }))}
              options={[
                { value: 'SENT', label: t('email.log.sent') },
                { value: 'FAILED', label: t('email.log.failed') },
              ]}
              data-testid="email-logs-status"
            />
          </SearchItem>
        }
        onRefresh={() => queryClient.invalidateQueries({ queryKey: contractKey(listEmailLogs) })}
      />
      <ServerPagedTable
      key={JSON.stringify(filters)}
      params={filters}
      contract={listEmailLogs}
      testId="email-logs"
      columns={[
        { key: 'createTime', dataIndex: 'createTime', title: t('email.log.time'), width: 170, render: (v: string | null) => formatDateTime(v) },
        { key: 'subject', dataIndex: 'subject', title: t('email.subject'), ellipsis: true },
        { key: 'tos', dataIndex: 'tos', title: t('email.tos'), ellipsis: true },
        { key: 'kind', dataIndex: 'kind', title: t('email.log.kind'), width: 110, render: (v: string) => t(`email.log.kinds.${v === 'code' ? 'code' : 'tool'}`) },
        {
          key: 'status',
          dataIndex: 'status',
          title: t('email.log.status'),
          width: 90,
          render: (v: string) => <Tag color={v === 'SENT' ? 'success' : 'error'}>{t(v === 'SENT' ? 'email.log.sent' : 'email.log.failed')}</Tag>,
        },
        { key: 'error', dataIndex: 'error', title: t('email.log.error'), ellipsis: true },
        { key: 'createBy', dataIndex: 'createBy', title: t('email.log.by'), width: 100 },
      ]}
    />
    </>
  );
}

function UsageTab() {
  const { t } = useTranslation('integrations');
  const lines = t('email.usage', { returnObjects: true }) as string[];
  return (
    <Typography className="integrations-usage">
      {lines.map((l) => (
        <Typography.Paragraph key={l}>{l}</Typography.Paragraph>
      ))}
    </Typography>
  );
}

export default function EmailToolPage() {
  const { t } = useTranslation('integrations');
  const { hasPermission } = useAuth();
  const canRead = hasPermission(contractCodes(emailSettings));
  const items = [
    ...(canRead ? [{ key: 'config', label: t('email.tabs.config'), children: <SettingsTab /> }] : []),
    { key: 'send', label: t('email.tabs.send'), children: <SendTab /> },
    ...(hasPermission(contractCodes(listEmailLogs)) ? [{ key: 'logs', label: t('email.tabs.logs'), children: <LogTab /> }] : []),
    { key: 'usage', label: t('email.tabs.usage'), children: <UsageTab /> },
  ];
  return (
    <Card className="integrations-page" data-testid="email-tool">
      <Tabs defaultActiveKey="send" items={items} destroyOnHidden />
    </Card>
  );
}
