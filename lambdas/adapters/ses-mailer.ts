/** Mail through Amazon SES v1 (SendEmail) from MAIL_FROM, the stack's SES identity. */
import { sesClient } from './aws/ses';
import type { AwsCredentials } from './aws/sigv4';
import type { Mailer } from '../core/ports';

export interface SesConnection {
  readonly region: string;
  readonly credentials: () => AwsCredentials;
}

/**
 * Bounded well inside the function's 10 s: when SES hangs, the send fails in time for the
 * caller to revoke the key it was announcing (behaviour KEY-14), instead of the function timing out
 * with the key still active.
 */
export function createSesMailer(from: string, connection: SesConnection): Mailer {
  const client = sesClient({ ...connection, maxAttempts: 2, connectTimeout: 1000, requestTimeout: 3000 });
  return {
    async send(message) {
      await client.sendEmail({ from, to: message.to, subject: message.subject, text: message.text, html: message.html });
    },
  };
}
