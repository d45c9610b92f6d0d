/**
 * Behaviour ADMIN-24: which client, who rotated it, when, and until when the replaced secret works,
 * so an admin who did not expect it can act within the overlap. Never a secret.
 */
import type { ClientSecretRotatedNotice, RotatedBy } from '../../../core/notices';
import type { MailText } from '../branded';

const utcMinute = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;

/**
 * A client's name on one line: a self-registered client chooses its own (RFC 7591 `client_name`),
 * and a line break in it would forge lines of this notice or break the subject header, so control
 * characters and line or paragraph separators become spaces.
 */
const oneLine = (text: string) =>
  text
    .replace(/[\p{Cc}\u2028\u2029]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();

function clientLine(client: ClientSecretRotatedNotice['client']): string {
  const named = `${oneLine(client.name)} (${client.clientId})`;
  return client.registrationType === 'dynamic' ? `${named}, self-registered: the name is its own choice` : named;
}

function who(actor: RotatedBy): string {
  if (actor.kind === 'admin-client') return `the admin client ${actor.name ? `${actor.name} (${actor.clientId})` : actor.clientId}`;
  const named = actor.email ?? actor.name;
  return `the admin ${named ? `${named} (user ${actor.userId})` : `user ${actor.userId}`}`;
}

export const clientSecretRotatedMail = ({
  client,
  rotatedBy,
  at,
  previousSecretExpiresAt,
  issuer,
}: ClientSecretRotatedNotice): MailText => ({
  subject: `The secret of client ${oneLine(client.name)} was rotated`,
  text: [
    `The secret of a client of ${issuer} was rotated.`,
    '',
    `  Client:      ${clientLine(client)}`,
    `  Rotated by:  ${who(rotatedBy)}`,
    `  When:        ${utcMinute(at)}`,
    `  Old secret:  ${previousSecretExpiresAt ? `works until ${utcMinute(previousSecretExpiresAt)}` : 'stopped working at once'}`,
    '',
    'You get this mail because you are an administrator. The new secret is not in it: only',
    'whoever rotated it was shown it.',
    '',
    'If nobody you know did this, rotate the secret again with no overlap (overlap_seconds 0):',
    'that ends every earlier secret at once. Then check the audit log for what else that',
    'caller did.',
  ].join('\n'),
});
