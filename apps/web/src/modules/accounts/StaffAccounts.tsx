import { createStaffAccounts, type SkipReason, STAFF_ACCOUNT_READ_CODES, type StaffAccountsAnswer } from '@app/shared/contracts/staffAccounts';
import { CopyOutlined, DownloadOutlined, UserAddOutlined } from '@ant-design/icons';
import { Alert, Button, Modal, Popconfirm, Space, Table, Tooltip, Typography } from 'antd';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../../app/feedback';
import { callContract, contractCodes } from '../../app/contractClient';
import { saveBlob } from '../../app/request';

/**
 * 为员工开通账号 (issue 13) on the staff list: a row button and a toolbar button for the checked rows, both
 * asked first; the server (contracts/staffAccounts.ts createStaffAccounts) makes logins named by the ID card with the
 * 普通员工 job and role and answers with one-time passwords, shown here once (copy / export) and never kept.
 */

/** The route's path (the screen tests answer it). */
export const STAFF_ACCOUNTS_URL = createStaffAccounts.path;

export type SkipReasonCode = SkipReason;

export type StaffAccountsResult = StaffAccountsAnswer;

/** Who may open accounts: the route's code (creating users) and reading the staff, as the server checks. */
export const STAFF_ACCOUNTS_CODES = { create: contractCodes(createStaffAccounts), readStaff: STAFF_ACCOUNT_READ_CODES } as const;

/** The request and the answer to show; `run` resolves to whether the server answered. */
export function useStaffAccounts() {
  // the staff ids being sent: their row buttons spin, the others wait
  const [pending, setPending] = useState<number[]>([]);
  const [result, setResult] = useState<StaffAccountsResult | null>(null);
  const run = useCallback(async (ids: number[]): Promise<boolean> => {
    if (ids.length === 0) return false;
    setPending(ids);
    try {
      setResult(await callContract(createStaffAccounts, { body: { ids } }));
      return true;
    } catch {
      // the request layer showed the server's message
      return false;
    } finally {
      setPending([]);
    }
  }, []);
  const close = useCallback(() => setResult(null), []);
  return { running: pending.length > 0, pending, result, run, close };
}

/** The toolbar's 为员工开通账号 for the checked rows: disabled (with a hint) while none is checked. */
export function StaffAccountsButton({ count, loading, onConfirm }: { count: number; loading?: boolean; onConfirm: () => void }) {
  const { t } = useTranslation('accounts');
  const none = count === 0;
  const button = (
    <Button icon={<UserAddOutlined />} disabled={none} loading={loading} data-testid="staff-accounts-batch">
      {t('staffAccounts.batchButton')}
    </Button>
  );
  if (none) {
    // a disabled button swallows pointer events: the tooltip needs a wrapper to show
    return (
      <Tooltip title={t('staffAccounts.selectFirst')}>
        <span data-testid="staff-accounts-batch-hint">{button}</span>
      </Tooltip>
    );
  }
  return (
    <Popconfirm
      title={t('staffAccounts.confirmBatch', { count })}
      description={t('staffAccounts.confirmHint')}
      okText={t('staffAccounts.ok')}
      cancelText={t('staffAccounts.cancel')}
      onConfirm={onConfirm}
    >
      {button}
    </Popconfirm>
  );
}

/** The row's 开通账号 (an icon button like 编辑 and 删除 beside it). */
export function StaffAccountRowButton({ name, loading, disabled, onConfirm }: { name: string; loading?: boolean; disabled?: boolean; onConfirm: () => void }) {
  const { t } = useTranslation('accounts');
  // the hover hint closes while the confirmation is open: it sat over the confirmation's 取消 (U24)
  const [confirming, setConfirming] = useState(false);
  return (
    <Popconfirm
      title={t('staffAccounts.confirmOne', { name })}
      description={t('staffAccounts.confirmHint')}
      okText={t('staffAccounts.ok')}
      cancelText={t('staffAccounts.cancel')}
      onConfirm={onConfirm}
      onOpenChange={setConfirming}
      disabled={disabled}
    >
      <Tooltip title={t('staffAccounts.rowAction')} open={confirming ? false : undefined}>
        <Button size="small" icon={<UserAddOutlined />} loading={loading} disabled={disabled && !loading} aria-label={t('staffAccounts.rowAction')} data-testid="staff-account-row" />
      </Tooltip>
    </Popconfirm>
  );
}

/** A CSV cell: quoted; an ID card kept as text (Excel would turn 18 digits into 1.1E+17 and lose three). */
function csvCell(value: string, keepDigits = false): string {
  if (keepDigits && /^[0-9Xx]+$/.test(value)) return `="${value}"`;
  // a leading = + - @ would make Excel evaluate a name as a formula
  const safe = /^[=+\-@]/.test(value) ? `'${value}` : value;
  return `"${safe.replace(/"/g, '""')}"`;
}

/** The created accounts as a CSV file Excel opens (UTF-8 with BOM, CRLF lines). */
export function accountsCsv(rows: StaffAccountsResult['created'], headers: [string, string, string]): string {
  const lines = [headers.map((h) => csvCell(h)).join(',')];
  for (const r of rows) lines.push([csvCell(r.staffName), csvCell(r.username, true), csvCell(r.password)].join(','));
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

/** The answer: created accounts with their passwords (shown once: copy / export) and the skipped rows. */
export function StaffAccountsDialog({ result, onClose }: { result: StaffAccountsResult | null; onClose: () => void }) {
  const { t } = useTranslation('accounts');
  // Unmounted on close rather than hidden: a closing antd dialog keeps its last content, passwords included.
  if (!result) return null;
  const { created, skipped } = result;
  const headers: [string, string, string] = [t('staffAccounts.staffName'), t('staffAccounts.username'), t('staffAccounts.password')];

  const copy = async () => {
    const text = [headers, ...created.map((r) => [r.staffName, r.username, r.password])].map((cells) => cells.join('\t')).join('\n');
    try {
      await navigator.clipboard.writeText(text);
      notify.success(t('staffAccounts.copied'));
    } catch {
      notify.error(t('staffAccounts.copyFailed'));
    }
  };
  const exportCsv = () => {
    saveBlob(new Blob([accountsCsv(created, headers)], { type: 'text/csv;charset=utf-8' }), `${t('staffAccounts.exportName')}.csv`);
  };

  return (
    <Modal
      open
      title={t('staffAccounts.resultTitle')}
      width={720}
      onCancel={onClose}
      // a click beside the dialog must not lose the only copy of the passwords
      mask={{ closable: false }}
      footer={
        <Button type="primary" onClick={onClose} data-testid="staff-accounts-close">
          {t('staffAccounts.close')}
        </Button>
      }
    >
      <div data-testid="staff-accounts-result">
        <Typography.Paragraph strong data-testid="staff-accounts-summary">
          {t('staffAccounts.summary', { created: created.length, skipped: skipped.length })}
        </Typography.Paragraph>
        {created.length > 0 && (
          <>
            <Alert type="warning" showIcon title={t('staffAccounts.onceWarning')} style={{ marginBottom: 12 }} />
            <Space style={{ marginBottom: 8, width: '100%', justifyContent: 'space-between' }}>
              <Typography.Text strong>{t('staffAccounts.created')}</Typography.Text>
              <Space>
                <Button icon={<CopyOutlined />} onClick={() => void copy()} data-testid="staff-accounts-copy">
                  {t('staffAccounts.copy')}
                </Button>
                <Button icon={<DownloadOutlined />} onClick={exportCsv} data-testid="staff-accounts-export">
                  {t('staffAccounts.export')}
                </Button>
              </Space>
            </Space>
            <Table
              size="small"
              rowKey="staffId"
              pagination={false}
              scroll={{ y: 280 }}
              dataSource={created}
              data-testid="staff-accounts-created"
              columns={[
                { key: 'staffName', dataIndex: 'staffName', title: headers[0], width: 140 },
                { key: 'username', dataIndex: 'username', title: headers[1], width: 220 },
                { key: 'password', dataIndex: 'password', title: headers[2], render: (p: string) => <Typography.Text code copyable={{ text: p }}>{p}</Typography.Text> },
              ]}
            />
          </>
        )}
        {skipped.length > 0 && (
          <>
            <Typography.Paragraph strong style={{ marginTop: 16, marginBottom: 8 }}>
              {t('staffAccounts.skipped')}
            </Typography.Paragraph>
            <Table
              size="small"
              rowKey="staffId"
              pagination={false}
              scroll={{ y: 200 }}
              dataSource={skipped}
              data-testid="staff-accounts-skipped"
              columns={[
                { key: 'staffId', dataIndex: 'staffId', title: t('staffAccounts.staffId'), width: 100 },
                { key: 'staffName', dataIndex: 'staffName', title: headers[0], width: 160, render: (n: string | null) => n ?? t('staffAccounts.hiddenName') },
                { key: 'reason', dataIndex: 'reasonCode', title: t('staffAccounts.reason'), render: (code: SkipReasonCode, row) => t(`staffAccounts.reasons.${code}`, { defaultValue: row.reason }) },
              ]}
            />
          </>
        )}
      </div>
    </Modal>
  );
}
