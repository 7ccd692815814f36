import type { ResourceDef } from '@app/shared/resource';
import { DownloadOutlined, FileExcelOutlined, InboxOutlined, UploadOutlined } from '@ant-design/icons';
import { Alert, Button, Modal, Progress, Space, Table, Typography, Upload, theme } from 'antd';
import type { UploadFile } from 'antd/es/upload';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { feedback, notify } from '../app/feedback';
import { currentLanguage } from '../app/i18n';
import { authHeaders } from '../app/session';
import { fieldLabel, resourceLabel } from './resourceLabels';
import { useResourceMutation } from './mutations';
import { downloadImportErrors, downloadResourceTemplate, exportResource, resourceImportUrl } from './resourceClient';

/**
 * Excel import, export and template buttons of a resource with `excel` options (spec §2, §5, §8):
 * one .xls/.xlsx file under 2 GB (the spec's check and message; the server enforces its own, smaller
 * MAX_IMPORT_BYTES and answers 413 with its limit, which the dialog shows), `POST /api/import/<name>` (multipart `file`) with upload progress and the per-row result;
 * `GET /api/export/<name>` with the current filters; `POST /api/download/<name>` template.
 */

/** Spec §5: the client refuses files of 2 GB or more ('上传文件大小不能超过 2GB!'). */
export const SPEC_MAX_IMPORT_BYTES = 2 * 1024 * 1024 * 1024;
const EXCEL_NAME = /\.(xls|xlsx)$/i;
/** Spec §4: after a clean import the dialog closes and the list reloads 2 s later. */
export const IMPORT_CLOSE_DELAY_MS = 2000;

export interface ImportResult {
  total: number;
  inserted: number;
  updated: number;
  failed: number;
  /** Of the failed rows, those refused because Excel lost the last digits of a long number (e.g. an ID card). */
  digitLoss?: number;
  errors: { row: number; column?: string; message: string }[];
  /** Rows imported as written with a remark (a payslip whose totals do not add up: P6). */
  warnings?: { row: number; column?: string; message: string }[];
  errorFileId?: string | null;
}

/** Why a chosen file is refused, or null. */
export function importFileProblem(file: { name: string; size: number }): 'format' | 'size' | null {
  if (!EXCEL_NAME.test(file.name)) return 'format';
  if (file.size >= SPEC_MAX_IMPORT_BYTES) return 'size';
  return null;
}

/** Upload with progress (fetch has none): XHR with the bearer token; resolves with the JSON answer. */
function uploadWithProgress(url: string, file: File, onProgress: (percent: number) => void): Promise<ImportResult> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    // the session cookie goes along (same origin); the CSRF header (or a bearer token in API mode) is added
    for (const [name, value] of Object.entries(authHeaders())) xhr.setRequestHeader(name, value);
    // the row errors and the error sheet come back in the UI's language (as every other request asks, request.ts)
    xhr.setRequestHeader('Accept-Language', currentLanguage());
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(Math.round((e.loaded / e.total) * 100));
    };
    xhr.onload = () => {
      let body: any;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = undefined;
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve(body as ImportResult);
      else reject(new Error(body?.message ?? `HTTP ${xhr.status}`));
    };
    xhr.onerror = () => reject(new Error(''));
    xhr.ontimeout = () => reject(new Error(''));
    const data = new FormData();
    data.append('file', file);
    xhr.send(data);
  });
}

export interface ImportDialogProps {
  def: ResourceDef;
  open: boolean;
  onClose: () => void;
  /** After a successful import (the list reloads). */
  onImported?: (result: ImportResult) => void;
  /** Upload URL; default the resource's import (resourceClient). */
  url?: string;
}

export function ImportDialog({ def, open, onClose, onImported, url }: ImportDialogProps) {
  const { t } = useTranslation('crud');
  const [files, setFiles] = useState<UploadFile[]>([]);
  const [percent, setPercent] = useState<number | null>(null);
  const [result, setResult] = useState<ImportResult | null>(null);
  const upload = useResourceMutation<ImportResult, File>(def, {
    mutationFn: async (file) => {
      const r = await uploadWithProgress(url ?? resourceImportUrl(def.name), file, setPercent);
      return {
        total: Number(r?.total ?? 0),
        inserted: Number(r?.inserted ?? 0),
        updated: Number(r?.updated ?? 0),
        failed: Number(r?.failed ?? 0),
        digitLoss: Number(r?.digitLoss ?? 0),
        errors: Array.isArray(r?.errors) ? r.errors : [],
        warnings: Array.isArray(r?.warnings) ? r.warnings : [],
        errorFileId: r?.errorFileId ?? null,
      };
    },
    // the lists refresh when some row went in (a file of refused rows changed nothing)
    changed: (res) => res.inserted + res.updated > 0,
    onSuccess: (res) => {
      setResult(res);
      if (res.failed === 0 && res.warnings?.length) {
        // imported, but the clerk must read the remarks: the dialog stays open with them
        notify.warning(t('importDialog.successWithWarnings', { count: new Set(res.warnings.map((w) => w.row)).size }));
        onImported?.(res);
      } else if (res.failed === 0) {
        notify.success(t('importDialog.success'));
        onImported?.(res);
        setTimeout(() => {
          reset();
          onClose();
        }, IMPORT_CLOSE_DELAY_MS);
      } else if (res.inserted + res.updated > 0) onImported?.(res);
    },
    // the upload is not the request helper's: its failure is shown here
    onError: (err) => {
      setPercent(null);
      notify.error(t('importDialog.failed'), (err as Error).message || undefined);
    },
  });
  const busy = upload.isPending;

  const reset = () => {
    setFiles([]);
    setPercent(null);
    setResult(null);
    upload.reset();
  };
  const close = () => {
    if (busy) return;
    reset();
    onClose();
  };

  const submit = () => {
    const file = files[0]?.originFileObj as File | undefined;
    if (!file) {
      notify.warning(t('importDialog.fileRequired'));
      return;
    }
    setResult(null);
    setPercent(0);
    upload.mutate(file);
  };

  return (
    <Modal
      open={open}
      title={t('importDialog.title', { label: resourceLabel(def) })}
      width={600}
      onCancel={close}
      destroyOnHidden
      mask={{ closable: false }}
      footer={
        <Space>
          <Button onClick={close} disabled={busy}>
            {t('cancel')}
          </Button>
          <Button type="primary" onClick={submit} loading={busy} icon={<UploadOutlined />} data-testid="import-submit">
            {t('importDialog.upload')}
          </Button>
        </Space>
      }
    >
      <Upload.Dragger
        accept=".xls,.xlsx"
        maxCount={1}
        multiple={false}
        fileList={files}
        disabled={busy}
        beforeUpload={(file, batch) => {
          if (batch.length > 1) {
            if (file === batch[0]) notify.warning(t('importDialog.oneFile', { count: batch.length }));
            return Upload.LIST_IGNORE;
          }
          const problem = importFileProblem(file);
          if (problem) {
            notify.warning(problem === 'format' ? t('importDialog.onlyExcel') : t('importDialog.tooLarge'));
            return Upload.LIST_IGNORE;
          }
          return false;
        }}
        onChange={({ fileList }) => {
          setFiles(fileList.slice(-1));
          setResult(null);
          setPercent(null);
        }}
        onRemove={(file) =>
          new Promise<boolean>((resolve) => {
            feedback.modal.confirm({
              title: t('importDialog.confirmRemove', { file: file.name }),
              okText: t('ok'),
              cancelText: t('cancel'),
              onOk: () => resolve(true),
              onCancel: () => resolve(false),
            });
          })
        }
        data-testid="import-dragger"
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined />
        </p>
        <p className="ant-upload-text">{t('importDialog.drag')}</p>
        <p className="ant-upload-hint">{t('importDialog.hint')}</p>
      </Upload.Dragger>
      <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0 }} data-testid="import-mode">
        {importModeText(def, t)}
      </Typography.Paragraph>
      {percent !== null && (
        <div style={{ marginTop: 12 }}>
          <UploadProgress percent={percent} busy={busy} result={result} />
          {busy && percent >= 100 && <Typography.Text type="secondary">{t('importDialog.processing')}</Typography.Text>}
        </div>
      )}
      {result && <ImportResultView result={result} />}
    </Modal>
  );
}

/**
 * The upload bar says how the import ended (U9): green when every row was saved, red with ✖ only when no row
 * was, and the warning colour without an icon when some rows were saved and others not.
 */
function UploadProgress({ percent, busy, result }: { percent: number; busy: boolean; result: ImportResult | null }) {
  const { token } = theme.useToken();
  const outcome = importOutcome(result);
  if (busy || !result) return <Progress percent={percent} status="active" />;
  if (outcome === 'partial') return <Progress percent={percent} status="normal" strokeColor={token.colorWarning} format={() => null} data-testid="import-progress-partial" />;
  return <Progress percent={percent} status={outcome === 'failed' ? 'exception' : 'success'} />;
}

/** Whether an import saved every row, some of them, or none. */
export function importOutcome(result: ImportResult | null): 'success' | 'partial' | 'failed' | null {
  if (!result) return null;
  if (!result.failed) return 'success';
  return result.inserted + result.updated > 0 ? 'partial' : 'failed';
}

function ImportResultView({ result }: { result: ImportResult }) {
  const { t } = useTranslation('crud');
  return (
    <div style={{ marginTop: 12 }} data-testid="import-result">
      <Alert
        type={{ success: 'success', partial: 'warning', failed: 'error' }[importOutcome(result) ?? 'success'] as 'success' | 'warning' | 'error'}
        showIcon
        title={t('importDialog.result', {
          count: result.total,
          total: result.total,
          saved: result.inserted + result.updated,
          inserted: result.inserted,
          updated: result.updated,
          failed: result.failed,
        })}
        action={
          result.errorFileId ? (
            <Button size="small" icon={<DownloadOutlined />} onClick={() => void downloadImportErrors(result.errorFileId!).catch(() => undefined)}>
              {t('importDialog.errorSheet')}
            </Button>
          ) : undefined
        }
      />
      {(result.digitLoss ?? 0) > 0 && (
        <Alert style={{ marginTop: 8 }} type="error" showIcon title={t('importDialog.digitLoss', { count: result.digitLoss })} data-testid="import-digit-loss" />
      )}
      {(result.warnings?.length ?? 0) > 0 && (
        <>
          <Alert
            style={{ marginTop: 8 }}
            type="warning"
            showIcon
            title={t('importDialog.warnings', { count: new Set(result.warnings?.map((w) => w.row)).size })}
            data-testid="import-warnings"
          />
          <RowMessages rows={result.warnings ?? []} />
        </>
      )}
      {result.errors.length > 0 && <RowMessages rows={result.errors} />}
    </div>
  );
}

/** What happens to the rows of an import, and after an interruption (finding S8). */
function importModeText(def: ResourceDef, t: (key: string, opts?: Record<string, unknown>) => string): string {
  if (def.excel?.importMode === 'allOrNothing') return t('importDialog.modeAllOrNothing');
  const keys = (def.excel?.importKey ?? []).map((n) => fieldLabel(def.name, def.fields.find((f) => f.name === n) ?? { name: n, label: n }));
  return keys.length ? t('importDialog.modeChunkedResumable', { keys: keys.join(t('importDialog.keySeparator')) }) : t('importDialog.modeChunked');
}

/** Per-row messages of an import (errors or remarks): row, column, message; paged past 10. */
function RowMessages({ rows }: { rows: ImportResult['errors'] }) {
  const { t } = useTranslation('crud');
  return (
    <Table
      size="small"
      style={{ marginTop: 8 }}
      rowKey={(r) => `${r.row}-${r.column ?? ''}-${r.message}`}
      dataSource={rows.slice(0, 200)}
      pagination={rows.length > 10 ? { pageSize: 10, size: 'small' } : false}
      columns={[
        { title: t('importDialog.row'), dataIndex: 'row', width: 70 },
        { title: t('importDialog.column'), dataIndex: 'column', width: 140 },
        { title: t('importDialog.message'), dataIndex: 'message' },
      ]}
    />
  );
}

export interface ExcelButtonsProps {
  def: ResourceDef;
  /** Filters of the current list (exports send them; none -> confirm exporting everything). */
  filters: Record<string, unknown>;
  /** Parameters sent with every export that are not user filters (not counted as filtering). */
  baseParams?: Record<string, unknown>;
  canImport?: boolean;
  canExport?: boolean;
  /** Show the template button (default: with import). */
  canTemplate?: boolean;
  onImported?: () => void;
  exportUrl?: string;
  importUrl?: string;
}

/** Import / export / template buttons for a resource with `excel` options. */
export function ExcelButtons({ def, filters, baseParams, canImport = true, canExport = true, canTemplate, onImported, exportUrl, importUrl }: ExcelButtonsProps) {
  const { t } = useTranslation('crud');
  const [importOpen, setImportOpen] = useState(false);
  const [exporting, setExporting] = useState(false);
  const [templating, setTemplating] = useState(false);
  if (!def.excel) return null;
  const excel = def.excel;

  const doExport = async () => {
    setExporting(true);
    try {
      await exportResource(def.name, { ...baseParams, ...filters }, `${excel.fileName}.xlsx`, exportUrl);
    } catch {
      /* shown by the request layer */
    } finally {
      setExporting(false);
    }
  };
  const onExport = () => {
    const filtering = Object.values(filters).some((v) => v !== undefined && v !== null && v !== '');
    if (filtering) return void doExport();
    feedback.modal.confirm({
      title: t('confirmTitle'),
      content: t('confirmExportAll'),
      okText: t('ok'),
      cancelText: t('cancel'),
      onOk: () => void doExport(),
    });
  };
  const onTemplate = async () => {
    setTemplating(true);
    try {
      await downloadResourceTemplate(def.name, `${excel.templateName}.xlsx`);
    } catch {
      /* shown by the request layer */
    } finally {
      setTemplating(false);
    }
  };

  // the buttons are one item of the toolbar's Space: their own Space keeps them apart
  return (
    <>
      <Space wrap>
        {canImport && (
          <Button icon={<UploadOutlined />} onClick={() => setImportOpen(true)} data-testid="crud-import">
            {t('import')}
          </Button>
        )}
        {canExport && (
          <Button icon={<DownloadOutlined />} onClick={onExport} loading={exporting} data-testid="crud-export">
            {t('export')}
          </Button>
        )}
        {(canTemplate ?? canImport) && (
          <Button icon={<FileExcelOutlined />} onClick={() => void onTemplate()} loading={templating} data-testid="crud-template">
            {t('template')}
          </Button>
        )}
      </Space>
      {canImport && <ImportDialog def={def} open={importOpen} onClose={() => setImportOpen(false)} onImported={() => onImported?.()} url={importUrl} />}
    </>
  );
}
