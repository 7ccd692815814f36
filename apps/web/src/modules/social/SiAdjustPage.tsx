import { DownloadOutlined, RiseOutlined, } from '@ant-design/icons';
import { Alert, Button, Card, Checkbox, DatePicker, Descriptions, Modal, Radio, Space, Steps, Table, Typography, } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type AdjustPreview, applySiAdjust, downloadSiAdjustTemplate, listSiBackItems, previewSiAdjust, type UploadedBase, uploadSiAdjust } from '@app/shared/contracts/siAdjust';
import { useAuth } from '../../app/auth';
import { callContract, contractCodes, downloadContract, uploadContract, useContractQuery } from '../../app/contractClient';
import { notify } from '../../app/feedback';
import { useIsMobile } from '../../app/useIsMobile';
import { formatMoney } from '../../crud/format';
import { SearchItem, SearchRow } from '../../crud/SearchBar';
import '../../crud/crud.css';
import { CompanySelect, useChosenCompany, useCompanies } from '../accounts/companies';
import { BackItemsTable, PreviewTable, SkippedList } from './SiAdjustTables';
import { FilePickButton } from '../../crud/FilePickButton';

/**
 * 社保管理 › 社保调基 (issue 24 item 2): a wizard per company. 1 source: the prior year's monthly average 应发 of
 * confirmed months, or an uploaded file of new bases; 2 preview: old → new per person and insurance, clamped values
 * marked; 3 apply from the month, after a confirmation that states the 补差 rows and totals it creates in the next
 * open month. Confirmed months are never rewritten; the server places each 补差 once (applying again adds nothing).
 */
type Source = 'average' | 'upload';

export default function SiAdjustPage() {
  const { t } = useTranslation('social');
  const { hasPermission } = useAuth();
  const mobile = useIsMobile();
  const { companies, loading, loaded } = useCompanies();
  const { companyId, setCompanyId } = useChosenCompany(companies, loaded);
  const [fromMonth, setFromMonth] = useState(() => `${dayjs().year()}-07`);
  const [source, setSource] = useState<Source>('average');
  const [housingFund, setHousingFund] = useState(true);
  const [bases, setBases] = useState<{ fileName: string; bases: UploadedBase[]; problems: { line: number; message: string }[] } | null>(null);
  const [step, setStep] = useState(0);
  const [preview, setPreview] = useState<AdjustPreview | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [applied, setApplied] = useState<{ targetMonth: string | null; backRows: number; totalSelf: number; totalCompany: number; staffUpdated: number; rowsReset: number } | null>(null);
  const canApply = hasPermission(contractCodes(applySiAdjust));

  const body = () => ({ companyId: companyId ?? 0, fromMonth, source, ...(source === 'upload' ? { bases: bases?.bases ?? [] } : { housingFund }) });
  const restart = () => {
    setStep(0);
    setPreview(null);
    setApplied(null);
  };
  const change = <T,>(set: (v: T) => void) => (v: T) => {
    set(v);
    restart();
  };

  const readFile = async (file: File) => {
    const form = new FormData();
    form.append('file', file);
    setBusy(true);
    try {
      const r = await uploadContract(uploadSiAdjust, form);
      setBases({ fileName: file.name, ...r });
      restart();
    } catch {
      /* the request layer showed the message */
    } finally {
      setBusy(false);
    }
  };

  const runPreview = async () => {
    if (companyId === null) return notify.warning(t('siAdjust.chooseCompany'));
    if (source === 'upload' && !bases?.bases.length) return notify.warning(t('siAdjust.uploadFirst'));
    setBusy(true);
    try {
      setPreview(await callContract(previewSiAdjust, { body: body() }));
      setApplied(null);
      setStep(1);
    } catch {
      /* shown */
    } finally {
      setBusy(false);
    }
  };

  const apply = async () => {
    setBusy(true);
    try {
      const r = await callContract(applySiAdjust, { body: body() });
      setApplied(r);
      setConfirming(false);
      notify.success(t('siAdjust.applied', { rows: r.backRows }));
    } catch {
      /* shown */
    } finally {
      setBusy(false);
    }
  };

  const items = useContractQuery(listSiBackItems, { query: { companyId: companyId ?? 0, targetMonth: applied?.targetMonth ?? undefined, size: 100 } }, { enabled: companyId !== null && step === 2 });

  return (
    <Card className="crud-page" variant="borderless" data-testid="si-adjust-page">
      <Typography.Title level={5} style={{ marginTop: 0 }}>
        <RiseOutlined /> {t('siAdjust.title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('siAdjust.hint')}</Typography.Paragraph>
      <Steps
        size="small"
        current={step}
        orientation={mobile ? 'vertical' : 'horizontal'}
        style={{ marginBottom: 16 }}
        items={[{ title: t('siAdjust.steps.source') }, { title: t('siAdjust.steps.preview') }, { title: t('siAdjust.steps.apply') }]}
      />

      <SearchRow testId="si-adjust-filters">
        <SearchItem label={t('siAdjust.company')}>
          <CompanySelect value={companyId} onChange={change(setCompanyId)} companies={companies} loading={loading} testId="si-adjust-company" style={{ width: 240 }} />
        </SearchItem>
        <SearchItem label={t('siAdjust.fromMonth')}>
          <DatePicker picker="month" format="YYYY-MM" allowClear={false} value={dayjs(`${fromMonth}-01`)} onChange={(d) => d && change(setFromMonth)(d.format('YYYY-MM'))} data-testid="si-adjust-month" />
        </SearchItem>
      </SearchRow>

      {step === 0 && (
        <div data-testid="si-adjust-source">
          <Radio.Group value={source} onChange={(e) => change(setSource)(e.target.value as Source)} style={{ marginBottom: 12 }}>
            <Space orientation={mobile ? 'vertical' : 'horizontal'}>
              <Radio value="average" data-testid="si-adjust-source-average">
                {t('siAdjust.sourceAverage', { year: Number(fromMonth.slice(0, 4)) - 1 })}
              </Radio>
              <Radio value="upload" data-testid="si-adjust-source-upload">
                {t('siAdjust.sourceUpload')}
              </Radio>
            </Space>
          </Radio.Group>
          {source === 'average' ? (
            <div style={{ marginBottom: 12 }}>
              <Checkbox checked={housingFund} onChange={(e) => change(setHousingFund)(e.target.checked)} data-testid="si-adjust-hf">
                {t('siAdjust.withHousingFund')}
              </Checkbox>
              <Typography.Paragraph type="secondary" style={{ marginTop: 4 }}>
                {t('siAdjust.averageHint')}
              </Typography.Paragraph>
            </div>
          ) : (
            <Space orientation="vertical" style={{ marginBottom: 12, width: '100%' }}>
              <Space wrap>
                <FilePickButton accept=".xlsx,.xls" onFile={readFile} loading={busy} testId="si-adjust-upload">
                  {t('siAdjust.upload')}
                </FilePickButton>
                <Button icon={<DownloadOutlined />} onClick={() => downloadContract(downloadSiAdjustTemplate, {}).catch(() => undefined)}>
                  {t('siAdjust.template')}
                </Button>
              </Space>
              <Typography.Text type="secondary">{t('siAdjust.uploadHint')}</Typography.Text>
              {bases && (
                <Alert
                  type={bases.problems.length ? 'warning' : 'success'}
                  showIcon
                  data-testid="si-adjust-upload-result"
                  title={t('siAdjust.uploadRead', { file: bases.fileName, count: bases.bases.length })}
                  description={bases.problems.length ? bases.problems.slice(0, 10).map((p) => t('siAdjust.uploadProblem', { line: p.line, message: p.message })).join('；') : undefined}
                />
              )}
            </Space>
          )}
          <div>
            <Button type="primary" onClick={runPreview} loading={busy} data-testid="si-adjust-preview">
              {t('siAdjust.previewButton')}
            </Button>
          </div>
        </div>
      )}

      {step >= 1 && preview && (
        <div data-testid="si-adjust-preview-step">
          <Alert
            type={preview.backRows ? 'warning' : 'info'}
            showIcon
            style={{ marginBottom: 12 }}
            data-testid="si-adjust-summary"
            title={t('siAdjust.summary', { people: preview.people.length, changed: preview.changedBases, clamped: preview.clamped })}
            description={
              preview.targetMonth
                ? t('siAdjust.backSummary', { months: preview.confirmedMonths.join('、'), target: preview.targetMonth, rows: preview.backRows, people: preview.backPeople, self: formatMoney(preview.totalSelf), company: formatMoney(preview.totalCompany) })
                : t('siAdjust.noConfirmed', { month: preview.fromMonth })
            }
          />
          <SkippedList skipped={preview.skipped} />
          <PreviewTable preview={preview} mobile={mobile} />
          {step === 1 && (
            <Space style={{ marginTop: 12 }} wrap>
              <Button onClick={restart}>{t('siAdjust.back')}</Button>
              <Button type="primary" disabled={!canApply || !preview.people.length} onClick={() => setStep(2)} data-testid="si-adjust-next">
                {t('siAdjust.next')}
              </Button>
            </Space>
          )}
        </div>
      )}

      {step === 2 && preview && (
        <div data-testid="si-adjust-apply-step" style={{ marginTop: 16 }}>
          <Descriptions size="small" bordered column={mobile ? 1 : 3} style={{ marginBottom: 12 }}>
            <Descriptions.Item label={t('siAdjust.fromMonth')}>{preview.fromMonth}</Descriptions.Item>
            <Descriptions.Item label={t('siAdjust.targetMonth')}>{preview.targetMonth ?? t('siAdjust.none')}</Descriptions.Item>
            <Descriptions.Item label={t('siAdjust.people')}>{preview.people.length}</Descriptions.Item>
          </Descriptions>
          {preview.byMonth.length > 0 && (
            <Table
              size="small"
              rowKey="month"
              pagination={false}
              style={{ marginBottom: 12 }}
              dataSource={preview.byMonth}
              columns={[
                { key: 'month', dataIndex: 'month', title: t('siAdjust.referMonth') },
                { key: 'rows', dataIndex: 'rows', title: t('siAdjust.rows'), align: 'right' },
                { key: 'self', dataIndex: 'self', title: t('siAdjust.self'), align: 'right', render: (v: number) => formatMoney(v) },
                { key: 'company', dataIndex: 'company', title: t('siAdjust.company2'), align: 'right', render: (v: number) => formatMoney(v) },
              ]}
            />
          )}
          {applied ? (
            <>
              <Alert
                type="success"
                showIcon
                style={{ marginBottom: 12 }}
                data-testid="si-adjust-done"
                title={t('siAdjust.doneTitle', { people: applied.staffUpdated, rows: applied.rowsReset })}
                description={applied.targetMonth ? t('siAdjust.doneBack', { rows: applied.backRows, target: applied.targetMonth, self: formatMoney(applied.totalSelf), company: formatMoney(applied.totalCompany) }) : undefined}
              />
              <BackItemsTable items={items.data?.content ?? []} loading={items.isFetching} />
              <Button style={{ marginTop: 12 }} onClick={restart}>
                {t('siAdjust.again')}
              </Button>
            </>
          ) : (
            <Space wrap>
              <Button onClick={() => setStep(1)}>{t('siAdjust.back')}</Button>
              <Button type="primary" danger disabled={!canApply} onClick={() => setConfirming(true)} data-testid="si-adjust-apply">
                {t('siAdjust.applyButton')}
              </Button>
            </Space>
          )}
        </div>
      )}

      <Modal
        open={confirming}
        title={t('siAdjust.confirmTitle')}
        okText={t('siAdjust.confirmOk')}
        okButtonProps={{ danger: true, loading: busy, 'data-testid': 'si-adjust-confirm-ok' } as never}
        onOk={apply}
        onCancel={() => setConfirming(false)}
        data-testid="si-adjust-confirm"
      >
        {preview && (
          <div data-testid="si-adjust-confirm-text">
            <p>{t('siAdjust.confirmBases', { people: preview.people.length, changed: preview.changedBases, month: preview.fromMonth })}</p>
            <p>
              {preview.targetMonth && preview.backRows
                ? t('siAdjust.confirmBack', { rows: preview.backRows, target: preview.targetMonth, self: formatMoney(preview.totalSelf), company: formatMoney(preview.totalCompany) })
                : t('siAdjust.confirmNoBack')}
            </p>
            <Typography.Text type="secondary">{t('siAdjust.confirmNote')}</Typography.Text>
          </div>
        )}
      </Modal>
    </Card>
  );
}
