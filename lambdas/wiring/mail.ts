/**
 * The notifier of a container: each notice worded by its template (lambdas/presentation/mail)
 * and mailed. With MAIL_OUTBOX_DIR set (the local server sets `<DATA_DIR>/outbox`) mail is
 * written there as files; otherwise it goes through SES. Like the other wiring modules, this is
 * where the environment is read.
 */
import { createOutboxMailer } from '../adapters/outbox-mailer';
import { createSesMailer } from '../adapters/ses-mailer';
import type { Notifier } from '../core/ports';
import { mailNotifier } from '../presentation/mail/render';
import { awsClientSettings } from './aws';
import { getContainer, perContainer } from './container';
import { getBrand } from './site';

export const getNotifier = /* @__PURE__ */ perContainer((env): Notifier => {
  const { config, clock } = getContainer();
  const outbox = env.MAIL_OUTBOX_DIR?.trim();
  const mailer = outbox
    ? createOutboxMailer(outbox, config.mailFrom, () => clock.now())
    : createSesMailer(config.mailFrom, awsClientSettings(env));
  // The site's title and logo (behaviour SITE-4); every mail-sending row reads the main table.
  return mailNotifier(mailer, getBrand);
});
