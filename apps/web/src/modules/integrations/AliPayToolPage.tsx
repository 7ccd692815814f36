import { AlipayCircleOutlined } from '@ant-design/icons';
import {
  type AlipayOrderRow,
  alipayNotify,
  alipayReturn,
  alipaySettings,
  listAlipayOrders,
  PRODUCTION_GATEWAY,
  payAsPc,
  payAsWeb,
  queryAlipayOrder,
  SANDBOX_GATEWAY,
  saveAlipaySettings,
} from '@app/shared/contracts/payment';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Col, Form, Input, InputNumber, Row, Select, Tabs, Tag, Typography } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../app/auth';
import { notify } from '../../app/feedback';
import { callContract, contractCodes, contractKey, useContractMutation, useContractQuery } from '../../app/contractClient';
import { formatDateTime } from '../../crud/format';
import { useIsMobile } from '../../app/useIsMobile';
import { ServerPagedTable } from './ServerPagedTable';
import './integrations.css';

/** 系统工具 › 支付宝工具: tabs 参数配置 / 测试（默认）/ 使用说明 (spec §2, §3 Payment config and form, §5). */

/** Spec §9: a test payment is within (0, 5000]. */
export const MAX_TEST_AMOUNT = 5000;
const MASK = '******';

function SettingsTab() {
  const { t } = useTranslation('integrations');
  const { hasPermission } = useAuth();
  const canEdit = hasPermission(contractCodes(saveAlipaySettings));
  const [form] = Form.useForm();
  const qc = useQueryClient();
  const q = useContractQuery(alipaySettings, {});
  const storedPrivate = !!q.data?.privateKey;
  const storedPublic = !!q.data?.publicKey;
  useEffect(() => {
    if (q.data) form.setFieldsValue({ ...q.data, privateKey: q.data.privateKey ? MASK : '', publicKey: q.data.publicKey ? MASK : '' });
  }, [q.data, form]);
  const save = useContractMutation(saveAlipaySettings, {
    onSuccess: () => {
      notify.success(t('common.updated'));
      qc.invalidateQueries({ queryKey: contractKey(alipaySettings) });
    },
  });
  const urlRules = [
    { required: true, message: t('alipay.urlRequired') },
    { pattern: /^https?:\/\//i, message: t('alipay.urlInvalid') },
  ];
  return (
    <Row gutter={24}>
      <Col xs={24} xl={15}>
        <Form form={form} layout="horizontal" labelCol={{ flex: '130px' }} disabled={!canEdit} name="alipay-settings" data-testid="alipay-settings" onFinish={(v) => save.mutate({ body: v })}>
          <Form.Item name="appID" label={t('alipay.appId')} rules={[{ required: true, message: t('alipay.appIdRequired') }]}>
            <Input maxLength={16} data-testid="alipay-appId" />
          </Form.Item>
          <Form.Item name="sysServiceProviderId" label={t('alipay.sellerId')} extra={t('alipay.sellerIdHint')} rules={[{ required: true, message: t('alipay.sellerIdRequired') }]}>
            <Input maxLength={16} data-testid="alipay-sellerId" />
          </Form.Item>
          <Form.Item name="privateKey" label={t('alipay.privateKey')} extra={storedPrivate ? t('alipay.keyKept') : undefined} rules={[{ required: !storedPrivate, message: t('alipay.privateKeyRequired') }]}>
            <Input.TextArea rows={4} autoComplete="off" spellCheck={false} data-testid="alipay-privateKey" />
          </Form.Item>
          <Form.Item name="publicKey" label={t('alipay.publicKey')} extra={storedPublic ? t('alipay.keyKept') : t('alipay.publicKeyHint')} rules={[{ required: !storedPublic, message: t('alipay.publicKeyRequired') }]}>
            <Input.TextArea rows={4} autoComplete="off" spellCheck={false} data-testid="alipay-publicKey" />
          </Form.Item>
          <Form.Item name="gateway" label={t('alipay.gateway')}>
            <Select
              data-testid="alipay-gateway"
              options={[
                { value: SANDBOX_GATEWAY, label: `${t('alipay.sandbox')} — ${SANDBOX_GATEWAY}` },
                { value: PRODUCTION_GATEWAY, label: `${t('alipay.production')} — ${PRODUCTION_GATEWAY}` },
              ]}
            />
          </Form.Item>
          <Form.Item name="returnUrl" label={t('alipay.returnUrl')} rules={urlRules}>
            <Input placeholder={`https://your.domain${alipayReturn.path}`} data-testid="alipay-returnUrl" />
          </Form.Item>
          <Form.Item name="notifyUrl" label={t('alipay.notifyUrl')} extra={t('alipay.notifyHint')} rules={urlRules}>
            <Input placeholder={`https://your.domain${alipayNotify.path}`} data-testid="alipay-notifyUrl" />
          </Form.Item>
          <Form.Item label=" " colon={false}>
            <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="alipay-save">
              {t('common.save')}
            </Button>
          </Form.Item>
        </Form>
      </Col>
      <Col xs={24} xl={9}>
        <Alert type="info" showIcon title={t('alipay.keysTitle')} description={t('alipay.keysHint')} />
      </Col>
    </Row>
  );
}

function OrdersTable() {
  const { t } = useTranslation('integrations');
  const { hasPermission } = useAuth();
  const canQuery = hasPermission(contractCodes(queryAlipayOrder));
  const qc = useQueryClient();
  const stateColor: Record<string, string> = { PAID: 'success', WAITING: 'processing', CLOSED: 'default' };
  // the fallback for a notify that never came: Alipay is asked for the order's state (alipay.trade.query)
  const query = useContractMutation(queryAlipayOrder, {
    onSuccess: (r) => {
      if (r.state === 'PAID') notify.success(t('alipay.queryPaid'));
      else if (r.state === 'CLOSED') notify.info(t('alipay.queryClosed'));
      else notify.info(t('alipay.queryWaiting', { status: r.tradeStatus }));
      qc.invalidateQueries({ queryKey: contractKey(listAlipayOrders) });
    },
  });
  return (
    <ServerPagedTable
      contract={listAlipayOrders}
      testId="alipay-orders"
      columns={[
        { key: 'outTradeNo', dataIndex: 'outTradeNo', title: t('alipay.outTradeNo'), width: 200 },
        { key: 'subject', dataIndex: 'subject', title: t('alipay.subject'), ellipsis: true },
        { key: 'totalAmount', dataIndex: 'totalAmount', title: t('alipay.amount'), align: 'right', width: 110 },
        { key: 'channel', dataIndex: 'channel', title: t('alipay.channel'), width: 90, render: (v: string) => t(v === 'WAP' ? 'alipay.wap' : 'alipay.pc') },
        { key: 'state', dataIndex: 'state', title: t('alipay.state'), width: 100, render: (v: string) => <Tag color={stateColor[v] ?? 'default'}>{t(`alipay.states.${v}`, v)}</Tag> },
        { key: 'tradeNo', dataIndex: 'tradeNo', title: t('alipay.tradeNo'), ellipsis: true },
        // Alipay's gmt_payment / send_pay_date are Beijing wall-clock text; older rows hold an ISO instant
        { key: 'paidTime', dataIndex: 'paidTime', title: t('alipay.paidTime'), width: 170, render: (v: string | null) => formatDateTime(v) },
        { key: 'createTime', dataIndex: 'createTime', title: t('alipay.createTime'), width: 170, render: (v: string | null) => formatDateTime(v) },
        ...(canQuery
          ? [
              {
                key: 'actions',
                title: t('alipay.actions'),
                width: 110,
                render: (_v: unknown, row: AlipayOrderRow) =>
                  row.state === 'WAITING' ? (
                    <Button size="small" data-testid={`alipay-query-${row.outTradeNo}`} loading={query.isPending && query.variables?.params.outTradeNo === row.outTradeNo} onClick={() => query.mutate({ params: { outTradeNo: row.outTradeNo } })}>
                      {t('alipay.query')}
                    </Button>
                  ) : null,
              },
            ]
          : []),
      ]}
    />
  );
}

function TestTab() {
  const { t } = useTranslation('integrations');
  const { hasPermission } = useAuth();
  const canPay = hasPermission(contractCodes(payAsPc));
  const mobile = useIsMobile();
  const [form] = Form.useForm();
  const qc = useQueryClient();
  const pay = useMutation({
    // spec §7: toPayAsWeb on mobile, toPayAsPC otherwise; the signed URL opens in a new window
    mutationFn: (v: { subject: string; totalAmount: number; body: string }) => callContract(mobile ? payAsWeb : payAsPc, { body: { ...v, totalAmount: v.totalAmount.toFixed(2) } }),
    onSuccess: (r) => {
      window.open(r.url, '_blank', 'noopener');
      notify.info(t('alipay.opened', { no: r.outTradeNo }));
      qc.invalidateQueries({ queryKey: contractKey(listAlipayOrders) });
    },
  });
  return (
    <>
      <Form
        form={form}
        layout="horizontal"
        labelCol={{ flex: '100px' }}
        style={{ maxWidth: 560 }}
        name="alipay-pay"
        data-testid="alipay-pay-form"
        disabled={!canPay}
        initialValues={{ subject: t('alipay.defaultSubject'), totalAmount: 0.01, body: t('alipay.defaultBody') }}
        onFinish={(v) => pay.mutate({ subject: v.subject.trim(), totalAmount: v.totalAmount, body: v.body.trim() })}
      >
        <Form.Item name="subject" label={t('alipay.subject')} rules={[{ required: true, whitespace: true, message: t('alipay.subjectRequired') }]}>
          <Input maxLength={256} data-testid="alipay-subject" />
        </Form.Item>
        <Form.Item
          name="totalAmount"
          label={t('alipay.amount')}
          extra={t('alipay.amountHint')}
          rules={[
            { required: true, message: t('alipay.amountRequired') },
            {
              validator: async (_r, v: number | null) => {
                if (v !== null && v !== undefined && (v <= 0 || v > MAX_TEST_AMOUNT)) throw new Error(t('alipay.amountRange'));
              },
            },
          ]}
        >
          <InputNumber precision={2} step={0.01} prefix="¥" style={{ width: 200 }} data-testid="alipay-amount" />
        </Form.Item>
        <Form.Item name="body" label={t('alipay.body')} rules={[{ required: true, whitespace: true, message: t('alipay.bodyRequired') }]}>
          <Input.TextArea rows={2} maxLength={400} data-testid="alipay-body" />
        </Form.Item>
        <Form.Item label=" " colon={false}>
          <Button type="primary" htmlType="submit" icon={<AlipayCircleOutlined />} loading={pay.isPending} data-testid="alipay-pay">
            {t('alipay.pay')}
          </Button>
        </Form.Item>
      </Form>
      {hasPermission(contractCodes(listAlipayOrders)) && (
        <>
          <Typography.Title level={5}>{t('alipay.orders')}</Typography.Title>
          <OrdersTable />
        </>
      )}
    </>
  );
}

function UsageTab() {
  const { t } = useTranslation('integrations');
  const lines = t('alipay.usage', { returnObjects: true }) as string[];
  return (
    <Typography className="integrations-usage">
      {lines.map((l) => (
        <Typography.Paragraph key={l}>{l}</Typography.Paragraph>
      ))}
    </Typography>
  );
}

export default function AliPayToolPage() {
  const { t } = useTranslation('integrations');
  const { hasPermission } = useAuth();
  const items = [
    ...(hasPermission(contractCodes(alipaySettings)) ? [{ key: 'config', label: t('alipay.tabs.config'), children: <SettingsTab /> }] : []),
    { key: 'test', label: t('alipay.tabs.test'), children: <TestTab /> },
    { key: 'usage', label: t('alipay.tabs.usage'), children: <UsageTab /> },
  ];
  return (
    <Card className="integrations-page" data-testid="alipay-tool">
      <Tabs defaultActiveKey="test" items={items} destroyOnHidden />
    </Card>
  );
}
