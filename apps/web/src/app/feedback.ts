import { App, Modal, message, notification } from 'antd';
import type { MessageInstance } from 'antd/es/message/interface';
import type { ModalStaticFunctions } from 'antd/es/modal/confirm';
import type { NotificationInstance } from 'antd/es/notification/interface';
import { type ReactNode, useEffect } from 'react';

/**
 * The antd feedback functions used outside React (the request layer). Inside the running app they are the
 * context-aware instances of antd's <App> (theme, locale, dark mode); before that (or in unit tests) the
 * static functions.
 */
export interface Feedback {
  modal: Pick<ModalStaticFunctions, 'confirm' | 'info' | 'success' | 'error' | 'warning'>;
  notification: NotificationInstance;
  message: MessageInstance;
}

export const feedback: Feedback = {
  modal: Modal,
  notification,
  message,
};

/** Notification duration of the spec (2500 ms). */
export const NOTIFY_SECONDS = 2.5;

/** Spec-style notices: success/error/warning/info toast in the top-right corner for 2.5 s. */
export const notify = {
  success: (title: ReactNode, description?: ReactNode, seconds = NOTIFY_SECONDS) =>
    feedback.notification.success({ title, description, duration: seconds }),
  error: (title: ReactNode, description?: ReactNode, seconds = NOTIFY_SECONDS) =>
    feedback.notification.error({ title, description, duration: seconds }),
  warning: (title: ReactNode, description?: ReactNode, seconds = NOTIFY_SECONDS) =>
    feedback.notification.warning({ title, description, duration: seconds }),
  info: (title: ReactNode, description?: ReactNode, seconds = NOTIFY_SECONDS) =>
    feedback.notification.info({ title, description, duration: seconds }),
};

/** Rendered once inside antd <App>: routes `feedback` to the context-aware instances. */
export function FeedbackBridge(): null {
  const app = App.useApp();
  useEffect(() => {
    feedback.modal = app.modal as unknown as Feedback['modal'];
    feedback.notification = app.notification;
    feedback.message = app.message;
    return () => {
      feedback.modal = Modal;
      feedback.notification = notification;
      feedback.message = message;
    };
  }, [app]);
  return null;
}
