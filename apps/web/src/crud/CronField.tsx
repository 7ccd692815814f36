import { useQuery } from '@tanstack/react-query';
import { Alert, Form, Input, Select, Space, Tag, Typography } from 'antd';
import { type ReactNode, useEffect, useState } from 'react';
import { api } from '../app/request';
import { formatDateTime } from './format';

/** The next five fire times of what is typed, or the server's reason why it never fires. */
function CronPreview({ cron, url, queryKey, nextRunsLabel, noNextRunLabel, testId }: { cron: string; url: string; queryKey: readonly unknown[]; nextRunsLabel: string; noNextRunLabel: string; testId: string }) {
  const [debounced, setDebounced] = useState(cron);
  // ask the server only once typing pauses, not on every key
  useEffect(() => {
    const id = setTimeout(() => setDebounced(cron.trim()), 400);
    return () => clearTimeout(id);
  }, [cron]);
  const q = useQuery({
    queryKey: [...queryKey, debounced],
    queryFn: () => api.get<{ times: string[] }>(url, { cron: debounced }, { silent: true }),
    enabled: debounced.length > 0,
    retry: false,
    staleTime: 30_000,
  });
  if (!debounced) return null;
  if (q.isError) return <Alert type="error" showIcon title={(q.error as Error).message} data-testid={`${testId}-error`} />;
  if (!q.data) return null;
  return (
    <div data-testid={`${testId}-preview`}>
      <Typography.Text type="secondary">{q.data.times.length ? nextRunsLabel : noNextRunLabel}</Typography.Text>
      <div>
        {q.data.times.map((time) => (
          <Tag key={time} style={{ marginTop: 4 }}>
            {formatDateTime(time)}
          </Tag>
        ))}
      </div>
    </div>
  );
}

export interface CronFieldProps {
  /** The form field holding the expression. */
  name: string;
  label: string;
  requiredMessage: string;
  placeholder: string;
  /** Common schedules (Quartz, seconds first) with their labels, so nobody has to know cron by heart. */
  presets: { value: string; label: string }[];
  presetsPlaceholder: string;
  /** Endpoint answering `{ times }` for `?cron=`, and the query key it is cached under. */
  nextRunsUrl: string;
  nextRunsKey: readonly unknown[];
  nextRunsLabel: string;
  noNextRunLabel: string;
  /** Test id of the input; the presets, preview and error use it as prefix. */
  testId: string;
  validateTrigger?: string;
  /** Shown under the preview (format help). */
  hint?: ReactNode;
}

/**
 * A cron expression in a dialog's form (model tasks, system jobs): the input, a select of common schedules
 * that fills it, and the server's preview of the next fire times. Used inside an antd Form.
 */
export function CronField(props: CronFieldProps) {
  const form = Form.useFormInstance();
  const cron: string = Form.useWatch(props.name, form) ?? '';
  return (
    <Form.Item label={props.label} required>
      <Space.Compact style={{ width: '100%' }}>
        <Form.Item name={props.name} noStyle rules={[{ required: true, whitespace: true, message: props.requiredMessage }]} validateTrigger={props.validateTrigger}>
          <Input maxLength={120} placeholder={props.placeholder} data-testid={props.testId} />
        </Form.Item>
        <Select
          style={{ width: 200 }}
          placeholder={props.presetsPlaceholder}
          value={null}
          onChange={(v: string) => form.setFieldValue(props.name, v)}
          options={props.presets}
          data-testid={`${props.testId}-presets`}
        />
      </Space.Compact>
      <div style={{ marginTop: 8 }}>
        <CronPreview cron={cron} url={props.nextRunsUrl} queryKey={props.nextRunsKey} nextRunsLabel={props.nextRunsLabel} noNextRunLabel={props.noNextRunLabel} testId={props.testId} />
      </div>
      {props.hint ? (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {props.hint}
        </Typography.Text>
      ) : null}
    </Form.Item>
  );
}
