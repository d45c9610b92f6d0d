/**
 * Amazon SES v1 SendEmail (query protocol: a form-encoded POST, an XML reply) through our
 * signed client, instead of @aws-sdk/client-ses on the mail-sending routes.
 */
import { xmlServiceError } from './errors';
import { Retrier } from './retry';
import type { AwsCredentials } from './sigv4';
import { AwsTransport } from './transport';

export interface SesMessage {
  readonly from: string;
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  /** An HTML alternative to the text (the site's logo, issue 14). */
  readonly html?: string;
}

export interface SesClientOptions {
  readonly region: string;
  readonly credentials: () => AwsCredentials;
  readonly maxAttempts: number;
  readonly connectTimeout: number;
  readonly requestTimeout: number;
  /** Defaults to the region's SES endpoint. */
  readonly endpoint?: string;
}

/** The SendEmail request's form fields, in the query protocol's flattened names. */
export function sendEmailForm(message: SesMessage): string {
  return new URLSearchParams({
    Action: 'SendEmail',
    Version: '2010-12-01',
    Source: message.from,
    'Destination.ToAddresses.member.1': message.to,
    'Message.Subject.Data': message.subject,
    'Message.Subject.Charset': 'UTF-8',
    'Message.Body.Text.Data': message.text,
    'Message.Body.Text.Charset': 'UTF-8',
    ...(message.html ? { 'Message.Body.Html.Data': message.html, 'Message.Body.Html.Charset': 'UTF-8' } : {}),
  }).toString();
}

export function sesClient(options: SesClientOptions) {
  const transport = new AwsTransport({
    ...options,
    // SES v1's endpoint is email.<region>; its signing name is ses.
    service: 'ses',
    endpoint: options.endpoint ?? `https://email.${options.region}.amazonaws.com`,
  });
  const retrier = new Retrier({ maxAttempts: options.maxAttempts });
  return {
    /** Resolves with SES's MessageId. */
    sendEmail(message: SesMessage): Promise<string> {
      const request = {
        method: 'POST' as const,
        path: '/',
        headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
        body: sendEmailForm(message),
      };
      return retrier.run(async () => {
        const reply = await transport.send(request);
        if (reply.status !== 200) throw xmlServiceError(reply.status, reply.body);
        return /<MessageId>([^<]*)<\/MessageId>/.exec(reply.body)?.[1] ?? '';
      });
    },
  };
}
