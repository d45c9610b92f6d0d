/**
 * Every mail carries the site's title and logo (behaviour SITE-4): the text gets the title as its
 * signature, and an HTML alternative shows the logo above the same words, escaped. The logo is
 * linked from the CDN, never attached; mail clients that block remote images show the title.
 */
import { type Brand, escapeHtml } from '../html';

/** What a template writes: the subject and the plain text, the content of record. */
export interface MailText {
  readonly subject: string;
  readonly text: string;
}

export interface BrandedMail extends MailText {
  readonly html: string;
}

export function brandedMail(mail: MailText, brand: Brand): BrandedMail {
  const paragraphs = mail.text
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
  return { subject: mail.subject, text: `${mail.text.trimEnd()}\n\n-- \n${brand.title}\n`, html };
}
