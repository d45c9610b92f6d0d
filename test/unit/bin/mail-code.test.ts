/**
 * `npm run -s mail:code` (bin/mail-code.ts) prints the code of the newest code mail in the local
 * outbox and nothing else: the README's sign-in step reads it. The mails are written by the real
 * outbox mailer from the real templates, so a template that says its code otherwise fails here.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { newestMailCode, outboxDir } from '../../../bin/mail-code';
import { createOutboxMailer } from '../../../lambdas/adapters/outbox-mailer';
import { mailNotifier } from '../../../lambdas/presentation/mail/render';
import { templates } from '../../../lambdas/presentation/mail/templates';

const root = join(__dirname, '..', '..', '..');
const tsx = join(root, 'node_modules', '.bin', 'tsx');
let scratch: string;
let clock = Date.parse('2026-11-26T10:00:00.000Z');

async function mailAll(dir: string): Promise<void> {
  const notifier = mailNotifier(
    createOutboxMailer(dir, 'no-reply@example.com', () => (clock += 1000)),
    async () => ({ title: 'Tollgate' }),
    templates,
  );
  await notifier.notify('admin@example.com', { kind: 'sign-in-code', code: '111111', expiresInMinutes: 10 });
  await notifier.notify('ada@example.org', { kind: 'email-confirmation-code', code: '222222', expiresInMinutes: 10 });
  await notifier.notify('admin@example.com', { kind: 'sign-in-code', code: '012345', expiresInMinutes: 10 });
  // A newer mail with no code is passed over.
  await notifier.notify('admin@example.com', {
    kind: 'password-changed',
    way: 'admin',
    at: '2026-11-26T10:05:00.000Z',
    passkeys: [],
    apiKeys: [],
    links: { passkeys: 'https://auth.example.org/api/users/passkey', forgotPassword: 'https://auth.example.org/forgot-password' },
  });
}

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'mail-code-'));
  await mailAll(join(scratch, 'outbox'));
});
afterAll(() => rm(scratch, { recursive: true, force: true }));

describe('newestMailCode (behaviour CONFIG-12)', () => {
  it('finds the newest code mail, or the newest one to an address, and nothing in an outbox without one', async () => {
    const dir = join(scratch, 'outbox');
    expect(await newestMailCode(dir)).toBe('012345');
    expect(await newestMailCode(dir, 'ADA@example.org')).toBe('222222');
    expect(await newestMailCode(dir, 'nobody@example.org')).toBeUndefined();
  });

  it('reads the outbox npm start writes: MAIL_OUTBOX_DIR, else <DATA_DIR>/outbox, else .data/outbox', () => {
    expect(outboxDir({ MAIL_OUTBOX_DIR: '/m', DATA_DIR: '/d' })).toBe('/m');
    expect(outboxDir({ DATA_DIR: '/d' })).toBe(join('/d', 'outbox'));
    expect(outboxDir({})).toBe(join('.data', 'outbox'));
  });
});

describe('npm run -s mail:code (behaviour CONFIG-12)', () => {
  const run = (env: Record<string, string>, args: string[] = []) =>
    promisify(execFile)(tsx, ['bin/mail-code.ts', ...args], { cwd: root, env: { ...process.env, ...env } });

  it('prints just the code, no HTML and no JSON', async () => {
    const { stdout } = await run({ MAIL_OUTBOX_DIR: join(scratch, 'outbox') });
    expect(stdout).toBe('012345\n');
  }, 30_000);

  it('exits 1 saying where it looked when there is no code (or no outbox)', async () => {
    const missing = join(scratch, 'none');
    const failure = await run({ MAIL_OUTBOX_DIR: missing }).catch((error: { code: number; stdout: string; stderr: string }) => error);
    expect(failure).toMatchObject({ code: 1, stdout: '' });
    expect((failure as { stderr: string }).stderr).toBe(
      `error: no mail with a code in ${missing}; sign in first (npm start writes mail there).\n`,
    );
  }, 30_000);
});
