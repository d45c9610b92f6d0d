/**
 * Every notice kind (lambdas/core/notices.ts) has its template (lambdas/presentation/mail), and
 * the mail's HTML alternative escapes what the notice carries (behaviour SITE-4): a passkey name,
 * a key name or a client name is whatever someone typed.
 */
import type { Notice, NoticeKind, NoticeOf } from '../../../lambdas/core/notices';
import type { Mailer, MailMessage, Notifier } from '../../../lambdas/core/ports';
import { mailNotifier, render } from '../../../lambdas/presentation/mail/render';
import { templates } from '../../../lambdas/presentation/mail/templates';
import { passkeyAddedMail } from '../../../lambdas/presentation/mail/templates/passkey-added';
import { passkeyRemovedMail } from '../../../lambdas/presentation/mail/templates/passkey-removed';
import { signInCodeMail } from '../../../lambdas/presentation/mail/templates/sign-in-code';

const hostile = `<script>alert("x")</script> & 'y'`;
const escaped = '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;';
const links = { passkeys: 'https://auth.example.org/api/users/passkey', forgotPassword: 'https://auth.example.org/forgot-password' };
const passkey = { name: hostile, createdAt: '2026-05-01T10:00:00.000Z' };
const apiKey = { keyId: '0123456789abcdef', clientId: 'cli_1', name: hostile, createdAt: '2026-05-01T10:00:00.000Z' };

/** One notice of each kind, each carrying the hostile string where it can: a kind missing here does not compile. */
const samples: { readonly [K in NoticeKind]: NoticeOf<K> } = {
  'sign-in-code': { kind: 'sign-in-code', code: '012345', expiresInMinutes: 10 },
  'email-confirmation-code': { kind: 'email-confirmation-code', code: '987654', expiresInMinutes: 10 },
  'password-reset-link': {
    kind: 'password-reset-link',
    url: `https://auth.example.org/reset-password?token=${hostile}`,
    expiresInMinutes: 30,
  },
  'password-changed': {
    kind: 'password-changed',
    way: 'reset-link',
    at: '2026-05-06T12:34:56.789Z',
    passkeys: [passkey],
    apiKeys: [apiKey],
    links,
  },
  'removed-after-reset': {
    kind: 'removed-after-reset',
    at: '2026-05-06T12:34:56.789Z',
    removedPasskeys: [passkey],
    revokedKeys: [apiKey],
    links,
  },
  'wrong-passwords': { kind: 'wrong-passwords', pausedUntilEpoch: 1780000200, forgotPasswordUrl: `${links.forgotPassword}?${hostile}` },
  'passkey-added': { kind: 'passkey-added', passkey, passkeysPageUrl: links.passkeys },
  'passkey-removed': { kind: 'passkey-removed', passkey, at: '2026-05-06T12:34:56.789Z', passkeysPageUrl: links.passkeys },
  'api-key-created': {
    kind: 'api-key-created',
    key: { keyId: '0123456789abcdef', name: hostile, scopes: ['read'] },
    client: { clientId: 'cli_1', name: hostile },
    userName: hostile,
    issuer: 'https://auth.example.org',
    revokeUrl: 'https://auth.example.org/api/admin/clients/cli_1/api-keys/0123456789abcdef',
  },
  'client-secret-rotated': {
    kind: 'client-secret-rotated',
    client: { clientId: 'cli_1', name: hostile, registrationType: 'static' },
    rotatedBy: { kind: 'admin-user', userId: 'usr_1', email: 'ada@example.org', name: hostile },
    at: '2026-05-06T12:34:56.789Z',
    previousSecretExpiresAt: '2026-05-07T12:34:56.789Z',
    issuer: 'https://auth.example.org',
  },
};
const notices: readonly Notice[] = Object.values(samples);
const brand = { title: 'Acme <Auth>', logoUrl: 'https://cdn.example.org/logo.png?a=1&b=2' };

describe('mail templates (lambdas/presentation/mail)', () => {
  it('has exactly one template for each notice kind', () => {
    expect(Object.keys(templates).sort()).toEqual(Object.keys(samples).sort());
  });

  it.each(notices.map((notice) => [notice.kind, notice] as const))(
    '%s: a subject, a text with the notice in it, and the brand',
    (_kind, notice) => {
      const mail = render(templates, notice, brand);
      expect(mail.subject).toMatch(/^\S.*\S$/);
      expect(mail.subject).not.toContain('\n');
      expect(`${mail.subject}\n${mail.text}`).not.toMatch(/undefined|\[object Object\]|NaN/);
      expect(mail.text.endsWith('\n\n-- \nAcme <Auth>\n')).toBe(true);
      expect(mail.html).toContain('<span>Acme &lt;Auth&gt;</span>');
      expect(mail.html).toContain('src="https://cdn.example.org/logo.png?a=1&amp;b=2"');
    },
  );

  it.each(notices.filter((notice) => !notice.kind.endsWith('-code')).map((notice) => [notice.kind, notice] as const))(
    '%s: the HTML escapes what the notice carries; the text keeps it as typed',
    (_kind, notice) => {
      const mail = render(templates, notice, brand);
      expect(mail.text).toContain(hostile);
      expect(mail.html).toContain(escaped);
      expect(mail.html).not.toContain('<script>');
    },
  );

  it('a self-registered client’s name cannot forge lines of the rotation notice or break its subject, and is marked as its own choice (behaviour ADMIN-24)', () => {
    const forged = 'Nice tool\r\n  Rotated by:  the admin alice@example.org\u2028Ignore this mail';
    const mail = render(
      templates,
      { ...samples['client-secret-rotated'], client: { clientId: 'tgc_dyn', name: forged, registrationType: 'dynamic' } },
      brand,
    );
    expect(mail.subject).not.toMatch(/[\r\n\u2028]/);
    const clientLines = mail.text.split('\n').filter((line) => line.includes('Nice tool'));
    expect(clientLines).toEqual([
      '  Client:      Nice tool Rotated by: the admin alice@example.org Ignore this mail (tgc_dyn), self-registered: the name is its own choice',
    ]);
    expect(mail.text.split('\n').filter((line) => line.trimStart().startsWith('Rotated by:'))).toHaveLength(1);
  });

  it('the sign-in code mail, byte for byte (behaviour MFA-3)', () => {
    const mail = render(templates, samples['sign-in-code'], { title: 'Tollgate' });
    expect(mail.subject).toBe('Your sign-in code');
    expect(mail.text).toBe(
      'Your sign-in code is 012345.\n\nIt works once, for 10 minutes. Nobody from us will ever ask you for it.\nIf you did not just sign in, someone knows your password: reset it now.\n\n-- \nTollgate\n',
    );
  });

  it('the notifier mails the rendered notice to the address, with the brand as it is when sending', async () => {
    const sent: MailMessage[] = [];
    const mailer: Mailer = { send: async (message) => void sent.push(message) };
    let title = 'Before';
    const notifier = mailNotifier(mailer, async () => ({ title }), templates);
    title = 'After';
    await notifier.notify('ada@example.org', samples['email-confirmation-code']);
    expect(sent).toEqual([{ to: 'ada@example.org', ...render(templates, samples['email-confirmation-code'], { title: 'After' }) }]);
    expect(sent[0]!.text).toContain('987654');
  });

  it("a use case's notifier words its own kinds with their templates, as the registry does", async () => {
    const sent: MailMessage[] = [];
    const notifier = mailNotifier({ send: async (message) => void sent.push(message) }, async () => brand, {
      'passkey-added': passkeyAddedMail,
      'passkey-removed': passkeyRemovedMail,
    });
    await notifier.notify('ada@example.org', samples['passkey-removed']);
    expect(sent).toEqual([{ to: 'ada@example.org', ...render(templates, samples['passkey-removed'], brand) }]);
  });

  it('a notifier is typed by the kinds it has templates for: a use case sending another kind does not compile', () => {
    const mailer: Mailer = { send: async () => undefined };
    const signInCodes = mailNotifier(mailer, async () => brand, { 'sign-in-code': signInCodeMail });
    // @ts-expect-error no template for 'wrong-passwords' in this notifier
    const sendsBoth: Notifier<'sign-in-code' | 'wrong-passwords'> = signInCodes;
    // @ts-expect-error a template is missing from the set
    const incomplete: Notifier<'passkey-added' | 'passkey-removed'> = mailNotifier(mailer, async () => brand, {
      'passkey-added': passkeyAddedMail,
    });
    // The whole registry serves any use case.
    const any: Notifier<'sign-in-code' | 'wrong-passwords'> = mailNotifier(mailer, async () => brand, templates);
    expect([sendsBoth, incomplete, any].every((notifier) => typeof notifier.notify === 'function')).toBe(true);
  });

  it('a mailer refusal reaches the caller', async () => {
    const notifier = mailNotifier({ send: async () => Promise.reject(new Error('MessageRejected')) }, async () => brand, templates);
    await expect(notifier.notify('ada@example.org', samples['sign-in-code'])).rejects.toThrow('MessageRejected');
  });
});
