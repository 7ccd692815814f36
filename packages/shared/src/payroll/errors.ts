/** Machine-readable code carried by every {@link PayrollInputError}. */
export const PAYROLL_INPUT_ERROR = 'PAYROLL_INPUT' as const;

/** Bad input to the payroll engine: names the offending field and carries a Chinese and an English message. */
export class PayrollInputError extends Error {
  readonly code = PAYROLL_INPUT_ERROR;
  readonly field: string;
  readonly messageZh: string;
  readonly messageEn: string;

  constructor(field: string, messageZh: string, messageEn: string) {
    // `message` stays the user-facing (Chinese) text; the English one is kept for logs and API clients.
    super(messageZh);
    this.name = 'PayrollInputError';
    this.field = field;
    this.messageZh = messageZh;
    this.messageEn = messageEn;
  }
}
