import { InfoCircleOutlined } from '@ant-design/icons';
import { Button, Modal, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { siChangeTemplateResource } from '@app/shared/resources/siChangeTemplate';
import { SI_CHANGE_FIELDS, type SiChangeField } from '@app/shared/socialInsurance/siChangeLayout';
import { ResourcePage } from '../../crud';

/**
 * 系统工具 › 社保模板: the generic screen, with the field names a column may use and the formats beside the toolbar
 * (in a dialog; the columns are JSON text, as the bank templates'; the server checks them on save and names the wrong part).
 */
function FieldsHelp() {
  const { t } = useTranslation('social');
  const [open, setOpen] = useState(false);
  const rows = (Object.keys(SI_CHANGE_FIELDS) as SiChangeField[]).map((field) => ({ field, meaning: t(`siChangeTemplate.labels.${field}`) }));
  const content = (
    <div data-testid="si-template-fields">
      <Table
        size="small"
        rowKey="field"
        pagination={false}
        scroll={{ y: 320 }}
        dataSource={rows}
        columns={[
          { key: 'field', dataIndex: 'field', title: t('siChangeTemplate.field'), width: 140, render: (v: string) => <Typography.Text code>{v}</Typography.Text> },
          { key: 'meaning', dataIndex: 'meaning', title: t('siChangeTemplate.meaning') },
        ]}
      />
      <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0, wordBreak: 'break-all' }}>
        {t('siChangeTemplate.formats')}
      </Typography.Paragraph>
    </div>
  );
  return (
    <>
      <Button icon={<InfoCircleOutlined />} onClick={() => setOpen(true)} data-testid="si-template-fields-button">
        {t('siChangeTemplate.fieldsButton')}
      </Button>
      <Modal open={open} title={t('siChangeTemplate.fieldsTitle')} footer={null} width={600} onCancel={() => setOpen(false)} destroyOnHidden>
        {content}
      </Modal>
    </>
  );
}

export default function SiChangeTemplatePage() {
  return <ResourcePage resource={siChangeTemplateResource} toolbar={<FieldsHelp />} />;
}
