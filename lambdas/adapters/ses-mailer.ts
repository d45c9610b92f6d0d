/** Mail through Amazon SES v1 (SendEmail) from MAIL_FROM, the stack's SES identity. */
import { SESClient, SendEmailCommand } from '@aws-sdk/client-ses';
import type { Mailer } from '../core/ports';

export function createSesMailer(from: string, client: SESClient = new SESClient({})): Mailer {
  return {
    async send(message) {
      await client.send(
        new SendEmailCommand({
          Source: from,
          Destination: { ToAddresses: [message.to] },
          Message: {
            Subject: { Data: message.subject, Charset: 'UTF-8' },
            Body: { Text: { Data: message.text, Charset: 'UTF-8' } },
          },
        }),
      );
    },
  };
}
