/**
 * Every notification mail carries the site's title and logo (issue 14, behaviour SITE-4): the
 * text gets the title as its signature, and an HTML alternative shows the logo above the same
 * words. The logo is linked from the CDN, never attached; mail clients that block remote images
 * show the title.
 */
import type { Mailer, MailMessage } from '../core/ports';
import { escapeHtml, type Brand } from './html';

export function brandedMail(message: MailMessage, brand: Brand): MailMessage {
  const paragraphs = message.text
    .trim()
    .split(/\n{2,}/)
    .map((paragraph) => `<p>${escapeHtml(paragraph).replace(/\n/g, '<br>')}</p>`)
    .join('\n');
  const logo = brand.logoUrl ? `<img src="${escapeHtml(brand.logoUrl)}" alt="" height="48" style="max-height:48px">` : '';
  const html = `<!doctype html>
<html><body style="font-family:system-ui,sans-serif;color:#1a1a1a">
<div style="display:flex;align-items:center;gap:12px;font-weight:600">${logo}<span>${escapeHtml(brand.title)}</span></div>
${paragraphs}
</body></html>
`;
  return { ...message, text: `${message.text.trimEnd()}\n\n-- \n${brand.title}\n`, html };
}

/** Brands each message with the title and logo as they are when it is sent. */
export function brandedMailer(mailer: Mailer, brand: () => Promise<Brand>): Mailer {
  return { send: async (message) => mailer.send(brandedMail(message, await brand())) };
}
