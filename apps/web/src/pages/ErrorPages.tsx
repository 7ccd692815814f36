import { Button, Result } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useAuth } from '../app/auth';
import { homePath } from '../app/session';
import { setPageTitle } from '../app/title';
import './errorPages.css';

/** 401: no permission for the page; tells the user to ask their leader; link back to the dashboard. */
export function Unauthorized() {
  const { t } = useTranslation();
  const { user } = useAuth();
  useEffect(() => setPageTitle('401'), []);
  return (
    <div className="error-page" data-testid="page-401">
      <Result
        status="403"
        title={<span className="error-page-code">401</span>}
        subTitle={
          <div>
            <h2 className="error-page-heading">{t('error401.heading')}</h2>
            <p>{t('error401.text')}</p>
          </div>
        }
        extra={
          <Link to={homePath(user)}>
            <Button type="primary">{t('error401.back')}</Button>
          </Link>
        }
      />
    </div>
  );
}

/** 404: unknown path, with the back-to-home link. */
export function NotFound() {
  const { t } = useTranslation();
  const { user } = useAuth();
  useEffect(() => setPageTitle('404'), []);
  return (
    <div className="error-page" data-testid="page-404">
      <Result
        status="404"
        title={<span className="error-page-code">404</span>}
        subTitle={
          <div>
            <h2 className="error-page-heading">{t('error404.heading')}</h2>
            <p>{t('error404.text')}</p>
          </div>
        }
        extra={
          <Link to={user ? homePath(user) : '/'}>
            <Button type="primary">{t('error404.back')}</Button>
          </Link>
        }
      />
    </div>
  );
}
