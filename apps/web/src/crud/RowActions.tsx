import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import { Button, Popconfirm } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * The 编辑 and 删除 links of a hand-written list's 操作 column. Texts come from the screen's own namespace
 * (`edit`, `delete`, `confirmDelete`, and `ok`/`cancel` unless other keys are given).
 */

export function EditRowButton({ ns, onClick, disabled, testId }: { ns: string; onClick: () => void; disabled?: boolean; testId?: string }) {
  const { t } = useTranslation(ns);
  return (
    <Button size="small" type="link" icon={<EditOutlined />} disabled={disabled} onClick={onClick} data-testid={testId}>
      {t('edit')}
    </Button>
  );
}

/** 删除, asked first (spec §4: confirmation before a destructive action). */
export function DeleteRowButton({
  ns,
  onConfirm,
  disabled,
  testId,
  okKey = 'ok',
  cancelKey = 'cancel',
}: {
  ns: string;
  onConfirm: () => void;
  disabled?: boolean;
  testId?: string;
  okKey?: string;
  cancelKey?: string;
}) {
  const { t } = useTranslation(ns);
  return (
    <Popconfirm title={t('confirmDelete')} onConfirm={onConfirm} okText={t(okKey)} cancelText={t(cancelKey)} disabled={disabled}>
      <Button size="small" type="link" danger icon={<DeleteOutlined />} disabled={disabled} data-testid={testId}>
        {t('delete')}
      </Button>
    </Popconfirm>
  );
}
