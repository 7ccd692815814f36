import { type CompanyCost, exportSalaryReport, salaryCostSummary } from '@app/shared/contracts/salaryRecords';
import { DownloadOutlined, FileExcelOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, DatePicker, Form, Table, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../app/auth';
import { notify } from '../../app/feedback';
import { callContract, downloadContract } from '../../app/contractClient';
import { formatMoney } from '../../crud/format';
import '../../crud/crud.css';
import { CompanySelect, useChosenCompany, useCompanies } from '../accounts/companies';
import './salary.css';

/**
 * 工资报表 (salary/report/index): choose a company and a month, download the Excel report
 * (contracts/salaryRecords.ts exportSalaryReport {companyId, month, cname}). A JSON answer instead of the file shows its
 * message for 2.5 s; an HTTP 405-type failure shows '接口异常，请联系管理员！' (both by the request layer).
 */
/** 用工成本 per client company for a month (contracts/salaryRecords.ts salaryCostSummary), with a totals row. */
function CompanyCostTable({ month }: { month: string }) {
  const { t } = useTranslation('salary');
  const q = useQuery({
    queryKey: ['accountsSalaryCost', month],
    queryFn: () => callContract(salaryCostSummary, { query: { month } }),
  });
  const money = (v: number) => formatMoney(v);
  return (
    <div className="salary-cost" data-testid="salary-cost">
      <Typography.Title level={5}>{t('report.cost.title')}</Typography.Title>
      <Typography.Paragraph type="secondary">{t('report.cost.hint')}</Typography.Paragraph>
      <Table<CompanyCost>
        size="small"
        rowKey="companyId"
        loading={q.isLoading}
        dataSource={q.data?.companies ?? []}
        pagination={false}
        locale={{ emptyText: t('report.cost.empty') }}
        scroll={{ x: 760 }}
        columns={[
          { key: 'companyName', dataIndex: 'companyName', title: t('report.cost.company'), fixed: 'left', width: 200 },
          { key: 'rows', dataIndex: 'rows', title: t('report.cost.rows'), align: 'right', width: 80 },
          { key: 'gross', dataIndex: 'gross', title: t('report.cost.gross'), align: 'right', render: money },
          { key: 'employerTotal', dataIndex: 'employerTotal', title: t('report.cost.employerTotal'), align: 'right', render: money },
          { key: 'labourCost', dataIndex: 'labourCost', title: t('report.cost.labourCost'), align: 'right', render: money },
          {
            key: 'confirmed',
            dataIndex: 'confirmed',
            title: t('report.cost.status'),
            width: 100,
            render: (v: boolean) => (v ? <Tag color="green">{t('locked')}</Tag> : <Tag>{t('unlocked')}</Tag>),
          },
        ]}
        summary={() =>
          q.data?.companies.length ? (
            <Table.Summary.Row>
              <Table.Summary.Cell index={0}>{t('report.cost.total')}</Table.Summary.Cell>
              <Table.Summary.Cell index={1} align="right">
                {q.data.total.rows}
              </Table.Summary.Cell>
              <Table.Summary.Cell index={2} align="right">
                {money(q.data.total.gross)}
              </Table.Summary.Cell>
              <Table.Summary.Cell index={3} align="right">
                {money(q.data.total.employerTotal)}
              </Table.Summary.Cell>
              <Table.Summary.Cell index={4} align="right">
                {money(q.data.total.labourCost)}
              </Table.Summary.Cell>
              <Table.Summary.Cell index={5} />
            </Table.Summary.Row>
          ) : null
        }
      />
    </div>
  );
}

export default function SalaryReportPage() {
  const { t } = useTranslation('salary');
  const { user } = useAuth();
  const { companies, loading, loaded } = useCompanies();
  const { companyId, setCompanyId } = useChosenCompany(companies, loaded);
  const [month, setMonth] = useState(() => dayjs().format('YYYY-MM'));
  const [busy, setBusy] = useState(false);

  const download = async () => {
    if (companyId === null) {
      notify.warning(t('report.chooseCompany'));
      return;
    }
    const cname = (user?.cname ?? '').trim();
    if (!cname) {
      notify.error(t('report.noCname'));
      return;
    }
    setBusy(true);
    try {
      // the server names the file 工资报表_<company>_<month>.xlsx (U16): its name is kept
      await downloadContract(exportSalaryReport, { body: { companyId, month, cname } });
      notify.success(t('report.downloaded'));
    } catch {
      /* the request layer showed the message */
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card className="crud-page" variant="borderless" data-testid="salary-report-page">
      <Typography.Title level={5} style={{ marginTop: 0 }}>
        <FileExcelOutlined /> {t('report.title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('report.hint')}</Typography.Paragraph>
      <Form layout="horizontal" labelCol={{ flex: '80px' }} className="salary-report-form">
        <Form.Item label={t('company')} required>
          <CompanySelect value={companyId} onChange={setCompanyId} companies={companies} loading={loading} testId="report-company" style={{ width: 300 }} />
        </Form.Item>
        <Form.Item label={t('month')} required>
          <DatePicker
            picker="month"
            format="YYYY-MM"
            allowClear={false}
            value={dayjs(`${month}-01`)}
            onChange={(d) => d && setMonth(d.format('YYYY-MM'))}
            data-testid="report-month"
            style={{ width: 300 }}
          />
        </Form.Item>
        <Form.Item label=" " colon={false}>
          <Button type="primary" icon={<DownloadOutlined />} loading={busy} onClick={() => void download()} data-testid="report-download">
            {t('report.download')}
          </Button>
        </Form.Item>
      </Form>
      <CompanyCostTable month={month} />
    </Card>
  );
}
