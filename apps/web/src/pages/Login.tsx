import type { captcha as captchaContract } from '@app/shared/contracts/auth';
import type { ContractResult } from '@app/shared/contracts/contract';
import { LockOutlined, SafetyCertificateOutlined, UserOutlined } from '@ant-design/icons';
import { Button, Checkbox, Form, Input, theme } from 'antd';
import { type KeyboardEvent, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { loginWithPassword } from '../app/auth';
import { fetchPublicKey } from '../app/crypto';
import { LanguageLinks } from '../app/LanguageLinks';
import { notify } from '../app/feedback';
import { RequestError } from '../app/request';
import { SESSION_ROUTES, callRoute } from '../app/contractClient';
import { getRememberedUsername, isOrdinaryEmployee, safeRedirect } from '../app/session';
import { setPageTitle } from '../app/title';
import './login.css';
import logoUrl from '../assets/logo.svg';

interface LoginForm {
  username: string;
  password: string;
  code: string;
  rememberMe: boolean;
}

type Captcha = ContractResult<typeof captchaContract>;

export { safeRedirect };

/** Where a freshly logged-in user goes (spec §2): ordinary employees to the payslips, others to `redirect`. */
export function afterLoginPath(user: { job?: string | null } | null, redirect: string | null): string {
  return isOrdinaryEmployee(user) ? '/acPayslip/index' : safeRedirect(redirect);
}

/** The login screen: user name, password (RSA-encrypted before sending), captcha, remember-me. */
export default function LoginPage() {
  const { t, i18n } = useTranslation('login');
  const [form] = Form.useForm<LoginForm>();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const [captcha, setCaptcha] = useState<Captcha | null>(null);
  const [captchaError, setCaptchaError] = useState(false);
  const [capsLock, setCapsLock] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const mounted = useRef(true);
  const remembered = getRememberedUsername();
  const { token } = theme.useToken();

  // biome-ignore lint/correctness/useExhaustiveDependencies: the title follows the language
  useEffect(() => {
    setPageTitle(t('pageTitle'));
  }, [t, i18n.language]);

  const refreshCaptcha = useCallback(async () => {
    try {
      const c = await callRoute<typeof captchaContract>(SESSION_ROUTES.captcha, {});
      if (mounted.current) {
        setCaptcha(c);
        setCaptchaError(false);
      }
    } catch {
      if (mounted.current) setCaptchaError(true);
    }
  }, []);

  useEffect(() => {
    mounted.current = true;
    void refreshCaptcha();
    // warm the key so the first submit does not wait for it
    fetchPublicKey().catch(() => undefined);
    return () => {
      mounted.current = false;
    };
  }, [refreshCaptcha]);

  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (typeof e.getModifierState === 'function') setCapsLock(e.getModifierState('CapsLock'));
  };

  const onFinish = async (values: LoginForm) => {
    setSubmitting(true);
    try {
      const user = await loginWithPassword({
        username: values.username,
        password: values.password,
        code: values.code,
        uuid: captcha?.uuid ?? '',
        rememberMe: !!values.rememberMe,
      });
      navigate(afterLoginPath(user, search.get('redirect')), { replace: true });
    } catch (err) {
      // the request layer has shown the server's message; anything else (encryption) is shown here
      if (!(err instanceof RequestError)) notify.error(err instanceof Error ? err.message : String(err));
      // a used captcha is dead, so get a new one
      form.setFieldValue('code', '');
      void refreshCaptcha();
    } finally {
      if (mounted.current) setSubmitting(false);
    }
  };

  return (
    <div className="login-page">
      <div className="login-card" style={{ background: token.colorBgContainer, color: token.colorText }}>
        <div className="login-header">
          <img className="login-logo" src={logoUrl} alt="" />
          <h1 className="login-title" style={{ color: token.colorTextHeading }}>
            {t('common:appName')}
          </h1>
        </div>
        <Form<LoginForm>
          form={form}
          name="login"
          size="large"
          validateTrigger="onBlur"
          initialValues={{ username: remembered ?? '', password: '', code: '', rememberMe: !!remembered }}
          onFinish={onFinish}
          autoComplete="on"
        >
          <Form.Item name="username" rules={[{ required: true, whitespace: true, message: t('usernameRequired') }]}>
            <Input prefix={<UserOutlined />} placeholder={t('username')} autoComplete="username" aria-label={t('username')} />
          </Form.Item>
          <Form.Item
            name="password"
            rules={[
              {
                validator: (_, value: string | undefined) =>
                  value && value.length >= 6 ? Promise.resolve() : Promise.reject(new Error(t('passwordMin'))),
              },
            ]}
            extra={capsLock ? <span className="login-capslock">{t('capsLock')}</span> : undefined}
          >
            <Input.Password
              prefix={<LockOutlined />}
              placeholder={t('password')}
              autoComplete="current-password"
              aria-label={t('password')}
              onKeyUp={onKey}
              onKeyDown={onKey}
              onBlur={() => setCapsLock(false)}
            />
          </Form.Item>
          <Form.Item>
            <div className="login-captcha-row">
              <Form.Item name="code" noStyle rules={[{ required: true, whitespace: true, message: t('codeRequired') }]}>
                <Input
                  prefix={<SafetyCertificateOutlined />}
                  placeholder={t('code')}
                  autoComplete="off"
                  maxLength={8}
                  aria-label={t('code')}
                  onPressEnter={() => form.submit()}
                />
              </Form.Item>
              <button
                type="button"
                className="login-captcha"
                onClick={() => void refreshCaptcha()}
                title={t('refreshCaptcha')}
                aria-label={t('refreshCaptcha')}
                data-testid="captcha"
              >
                {captcha && !captchaError ? <img src={captcha.img} alt={t('code')} /> : <span>{t('captchaRetry')}</span>}
              </button>
            </div>
          </Form.Item>
          <Form.Item name="rememberMe" valuePropName="checked" className="login-remember">
            <Checkbox>{t('rememberMe')}</Checkbox>
          </Form.Item>
          <Form.Item className="login-submit">
            <Button type="primary" htmlType="submit" block loading={submitting} data-testid="login-submit">
              {submitting ? t('submitting') : t('submit')}
            </Button>
          </Form.Item>
        </Form>
      </div>
      <LanguageLinks className="login-languages" />
      <div className="login-footer">© {new Date().getFullYear()} {t('common:appName')}</div>
    </div>
  );
}
