import { DownloadOutlined, FileExcelOutlined } from '@ant-design/icons';
import { Button, Card, DatePicker, Form, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../app/auth';
import { notify } from '../../app/feedback';
import { downloadBlob } from '../../app/request';
import '../../crud/crud.css';
import { CompanySelect, useChosenCompany, useCompanies } from '../accounts/companies';
import './salary.css';

/** Name of the downloaded workbook (spec §9 '工资报表.xls'; the server sends Office Open XML). */
export const SALARY_REPORT_FILE = '工资报表.xlsx';

/**
 * 工资报表 (salary/report/index): choose a company and a month, download the Excel report
 * (POST /api/export/accountsSalary {companyId, month, cname}). A JSON answer instead of the file shows its
 * message for 2.5 s; an HTTP 405-type failure shows '接口异常，请联系管理员！' (both by the request layer).
 */
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
      await downloadBlob('/api/export/accountsSalary', { method: 'POST', data: { companyId, month, cname }, fileName: SALARY_REPORT_FILE });
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
    </Card>
  );
}
