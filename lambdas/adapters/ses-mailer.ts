/** Mail through Amazon SES v1 (SendEmail) from MAIL_FROM, the stack's SES identity. */
import { SESClient, SendEmailCommand } from '@aws-sdk/client-ses';
import type { Mailer } from '../core/ports';

/**
 * Bounded well inside the function's 10 s: when SES hangs, the send fails in time for the
 * caller to revoke the key it was announcing (behaviour KEY-14), instead of the function timing out
 * with the key still active.
 */
const boundedClient = () => new SESClient({ maxAttempts: 2, requestHandler: { connectionTimeout: 1000, requestTimeout: 3000 } });

export function createSesMailer(from: string, client: SESClient = boundedClient()): Mailer {
  return {
    async send(message) {
      await client.send(
        new SendEmailCommand({
          Source: from,
          Destination: { ToAddresses: [message.to] },
          Message: {
            Subject: { Data: message.subject, Charset: 'UTF-8' },
            Body: {
              Text: { Data: message.text, Charset: 'UTF-8' },
              ...(message.html ? { Html: { Data: message.html, Charset: 'UTF-8' } } : {}),
            },
          },
        }),
      );
    },
  };
}
