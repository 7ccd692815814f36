/** Sends e-mail. The settings module replaces the logging sender with SMTP once a mail server is configured. */
export interface MailMessage {
  to: string[];
  subject: string;
  html: string;
}

export interface MailSender {
  send(message: MailMessage): Promise<void>;
}

/** Development sender: writes the message to the log instead of sending it; keeps the last messages for tests. */
export class LoggingMailSender implements MailSender {
  readonly sent: MailMessage[] = [];
  constructor(private log: (msg: string) => void = (m) => console.log(m)) {}
  async send(message: MailMessage): Promise<void> {
    this.sent.push(message);
    if (this.sent.length > 100) this.sent.shift();
    this.log(`[mail] to=${message.to.join(',')} subject=${message.subject}`);
  }
}
