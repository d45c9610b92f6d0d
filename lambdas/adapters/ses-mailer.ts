/** Mail through Amazon SES v1 (SendEmail) from MAIL_FROM, the stack's SES identity. */
import type { SESClient } from '@aws-sdk/client-ses';
import type { Mailer } from '../core/ports';
import { type AwsClientSettings, boundToInvocation, clientConfig } from './aws/sdk-clients';

/**
 * Bounded well inside the function's 10 s: when SES hangs, the send fails in time for the caller
 * to revoke the key it was announcing (behaviour KEY-14), instead of the function timing out with
 * the key still active. Two attempts, not the SDK's three: SendEmail is not idempotent, and a
 * resend after a lost reply delivers the message twice (a duplicate notice is the lesser harm).
 */
export const sesCallBounds = { maxAttempts: 2, connectionTimeout: 1000, requestTimeout: 3000 } as const;

/**
 * The SES client is imported on the first send, not with the module: the dependency objects of
 * several routes that never send mail hold a mailer (the admin API's, the passkey pages'), and
 * only the routes whose row says `sendsMail` should load an SDK client for it
 * (test/infra/request-path-bundles.test.ts).
 */
export function createSesMailer(from: string, settings: AwsClientSettings = {}, client?: SESClient): Mailer {
  let loaded:
    | Promise<{ ses: Pick<SESClient, 'send'>; SendEmailCommand: typeof import('@aws-sdk/client-ses').SendEmailCommand }>
    | undefined;
  const load = () =>
    (loaded ??= import('@aws-sdk/client-ses').then(({ SESClient, SendEmailCommand }) => ({
      ses: boundToInvocation(client ?? new SESClient(clientConfig(sesCallBounds, settings)), settings),
      SendEmailCommand,
    })));
  return {
    async send(message) {
      const { ses, SendEmailCommand } = await load();
      await ses.send(
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
