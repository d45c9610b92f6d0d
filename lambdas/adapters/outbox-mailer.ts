/**
 * Local mail: one JSON file per message in an outbox folder (MAIL_OUTBOX_DIR; the local
 * server uses `<DATA_DIR>/outbox`), for the developer and the tests to read. Writing fails
 * when the folder cannot be created or written (for example when a file stands in its
 * place), which is how tests make delivery fail without mocking: the same path a real SES
 * rejection takes.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Mailer } from '../core/ports';

export interface OutboxMail {
  readonly from: string;
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html?: string;
  readonly sentAt: string;
}

export function createOutboxMailer(dir: string, from: string, now: () => number = Date.now): Mailer {
  return {
    async send(message) {
      await mkdir(dir, { recursive: true, mode: 0o700 });
      const sentAt = new Date(now()).toISOString();
      const mail: OutboxMail = {
        from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        ...(message.html ? { html: message.html } : {}),
        sentAt,
      };
      // Time first, so a plain listing is in sending order; `wx` never overwrites.
      const name = `${sentAt.replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}.json`;
      // Written under a name no reader takes (not .json), then renamed: a reader polling the
      // folder never parses a half-written mail (a browser test did, with the HTML part's size).
      const partial = join(dir, `.${name}.partial`);
      await writeFile(partial, `${JSON.stringify(mail, null, 2)}\n`, { flag: 'wx', mode: 0o600 });
      await rename(partial, join(dir, name));
    },
  };
}
