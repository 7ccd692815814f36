import { Button, Result } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';
import { recordError } from '../app/errorLog';

/** Last-resort page when rendering a route throws. */
export default function RouteError() {
  const error = useRouteError();
  const { t } = useTranslation();
  useEffect(() => recordError(error), [error]);
  return (
    <Result
      status="error"
      title={t('screenError')}
      subTitle={error instanceof Error ? error.message : String(error)}
      extra={
        <Button type="primary" onClick={() => window.location.reload()}>
          {t('actions.refresh')}
        </Button>
      }
    />
  );
}
