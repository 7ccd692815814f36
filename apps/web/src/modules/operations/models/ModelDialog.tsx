import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { saveModel } from '@app/shared/contracts/operations/models';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Form, Input, Modal, Radio, Select, Space, Tooltip, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../../../app/feedback';
import { callContract } from '../../../app/contractClient';
import { FILE_TYPES, type ModelRow, OFF_SHELF, ON_SHELF, PARAMETER_TYPES } from '../types';
import { checkParameterRows, emptyRow, type ParameterDraft, rowComplete, rowsToSend } from './parameterRows';

interface FormValues {
  modelName: string;
  fileType: string;
  site: string;
  statu: number;
  secret?: string;
}

/**
 * 新增 / 编辑 a model (spec §5): type, name, interface address, state, and the parameter rows — the first row's code
 * is required, a new row may not repeat an earlier one's code + name + type, none may be empty, 添加 stays disabled
 * while the last row is incomplete, every row but the first can be removed. A built-in model keeps its address,
 * type and parameter codes (the server refuses changing them); an external one may carry a signing key.
 */
export default function ModelDialog({ open, editing, onClose }: { open: boolean; editing: ModelRow | null; onClose: () => void }) {
  const { t } = useTranslation('models');
  const [form] = Form.useForm<FormValues>();
  const queryClient = useQueryClient();
  const [rows, setRows] = useState<ParameterDraft[]>([emptyRow()]);
  const [rowError, setRowError] = useState<string | null>(null);
  const builtin = !!editing?.builtin;

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    setRowError(null);
    if (editing) {
      form.setFieldsValue({ modelName: editing.modelName, fileType: editing.fileType, site: editing.site, statu: editing.statu, secret: editing.hasSecret ? '******' : '' });
      setRows(editing.parameterInfo.length ? editing.parameterInfo.map((p) => ({ ...p })) : [emptyRow()]);
    } else {
      form.setFieldsValue({ statu: OFF_SHELF });
      setRows([emptyRow()]);
    }
  }, [open, editing, form]);

  const setRow = (i: number, patch: Partial<ParameterDraft>) => {
    setRows((rs) => rs.map((r, j) => (j === i ? { ...r, ...patch } : r)));
    setRowError(null);
  };
  const last = rows[rows.length - 1];
  const addRow = () => {
    // a new row may not repeat an earlier one (checked when it is added, as the spec says)
    const problem = checkParameterRows(rows);
    if (problem) {
      setRowError(problem);
      return;
    }
    setRows((rs) => [...rs, emptyRow()]);
  };

  const save = useMutation({
    mutationFn: (v: FormValues) => {
      const body = { ...v, id: editing?.id, parameterInfo: rowsToSend(rows), secret: v.secret === '******' ? undefined : v.secret };
      return callContract(saveModel, { body });
    },
    onSuccess: () => {
      notify.success(editing ? t('msg.updated') : t('msg.created'));
      onClose();
      return queryClient.invalidateQueries({ queryKey: ['models'] });
    },
  });
  const submit = (v: FormValues) => {
    const problem = checkParameterRows(rows);
    if (problem) {
      setRowError(problem);
      return;
    }
    save.mutate(v);
  };
  const site: string = Form.useWatch('site', form) ?? '';
  const external = !site.startsWith('builtin:');

  return (
    <Modal
      open={open}
      title={editing ? t('model.editTitle') : t('model.addTitle')}
      width={780}
      okText={t('ok')}
      cancelText={t('cancel')}
      confirmLoading={save.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
      forceRender
    >
      <Form form={form} layout="horizontal" labelCol={{ span: 4 }} onFinish={submit} data-testid="model-dialog">
        <Form.Item name="fileType" label={t('model.fileType')} rules={[{ required: true, message: t('rule.fileType') }]}>
          <Select disabled={builtin} options={FILE_TYPES.map((f) => ({ value: f, label: f }))} data-testid="model-file-type" />
        </Form.Item>
        <Form.Item name="modelName" label={t('model.modelName')} rules={[{ required: true, whitespace: true, message: t('rule.modelName') }]}>
          <Input maxLength={50} data-testid="model-name" />
        </Form.Item>
        <Form.Item name="site" label={t('model.site')} rules={[{ required: true, whitespace: true, message: t('rule.site') }]} extra={builtin ? t('model.builtinHint') : t('model.siteHint')}>
          <Input maxLength={500} disabled={builtin} placeholder="https://models.example.com/analyse" data-testid="model-site" />
        </Form.Item>
        {!builtin && external ? (
          <Form.Item name="secret" label={t('model.secret')} extra={t('model.secretHint')}>
            <Input.Password maxLength={200} autoComplete="new-password" data-testid="model-secret" />
          </Form.Item>
        ) : null}
        <Form.Item name="statu" label={t('model.statu')} rules={[{ required: true, message: t('rule.statu') }]}>
          <Radio.Group
            options={[
              { value: ON_SHELF, label: t('shelf.on') },
              { value: OFF_SHELF, label: t('shelf.off') },
            ]}
          />
        </Form.Item>
        <Form.Item label={t('model.parameters')}>
          <div className="model-param-rows" data-testid="model-params">
            {rows.map((r, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity of their own while being typed
              <Space key={i} className="model-param-row" align="start">
                <Input
                  placeholder={t('model.parameterCode')}
                  value={r.parameterCode}
                  maxLength={40}
                  disabled={builtin}
                  onChange={(e) => setRow(i, { parameterCode: e.target.value })}
                  status={i === 0 && rowError === 'rule.paramFirst' ? 'error' : undefined}
                  style={{ width: 160 }}
                  data-testid="param-code"
                />
                <Input placeholder={t('model.parameterName')} value={r.parameterName} maxLength={50} onChange={(e) => setRow(i, { parameterName: e.target.value })} style={{ width: 200 }} data-testid="param-name" />
                <Select
                  placeholder={t('model.parameterType')}
                  value={r.parameterType || undefined}
                  disabled={builtin}
                  onChange={(v) => setRow(i, { parameterType: v })}
                  options={PARAMETER_TYPES.map((p) => ({ value: p, label: t(`paramType.${p}`) }))}
                  style={{ width: 130 }}
                  data-testid="param-type"
                />
                {i > 0 && !builtin ? (
                  <Tooltip title={t('model.removeRow')}>
                    <Button icon={<DeleteOutlined />} danger onClick={() => setRows((rs) => rs.filter((_, j) => j !== i))} data-testid="param-remove" />
                  </Tooltip>
                ) : null}
              </Space>
            ))}
            {builtin ? null : (
              <Button icon={<PlusOutlined />} disabled={!rowComplete(last)} onClick={addRow} data-testid="param-add">
                {t('model.addRow')}
              </Button>
            )}
            {rowError ? <Alert type="error" showIcon title={t(rowError)} style={{ marginTop: 8 }} data-testid="param-error" /> : null}
            <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0, fontSize: 12 }}>
              {t('model.parametersHint')}
            </Typography.Paragraph>
          </div>
        </Form.Item>
      </Form>
    </Modal>
  );
}
