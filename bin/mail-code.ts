/**
 * `npm run -s mail:code`: prints the code of the newest mail in the local outbox that carries
 * one (the sign-in code, the email-confirmation code) and nothing else, so a shell can take it:
 * `CODE=$(npm run -s mail:code)`. `-- <address>` takes the newest mail sent to that address.
 * The outbox is where `npm start` writes mail: MAIL_OUTBOX_DIR, else `<DATA_DIR>/outbox`
 * (DATA_DIR defaults to .data/). The mails are JSON with an HTML part, which is why grepping
 * them printed markup rather than the code (behaviour CONFIG-12).
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The sentence the code mails say it in (presentation/mail/templates: sign-in-code, email-confirmation-code). */
const codeSentence = /\bcode is (\d{6})\b/;

/** The code of the newest mail in `dir` (to `to`, when given) that carries one. */
export async function newestMailCode(dir: string, to?: string): Promise<string | undefined> {
  // Outbox names start with the sending time (adapters/outbox-mailer.ts), so they sort in sending order.
  const names = (await readdir(dir)).filter((name) => name.endsWith('.json') && !name.startsWith('.')).sort();
  for (const name of names.reverse()) {
    const mail = JSON.parse(await readFile(join(dir, name), 'utf8')) as { to?: string; text?: string };
    if (to && mail.to?.toLowerCase() !== to.toLowerCase()) continue;
    const code = codeSentence.exec(mail.text ?? '')?.[1];
    if (code) return code;
  }
  return undefined;
}

export function outboxDir(env: NodeJS.ProcessEnv): string {
  return env.MAIL_OUTBOX_DIR || join(env.DATA_DIR || '.data', 'outbox');
}

if (require.main === module) {
  const dir = outboxDir(process.env);
  const to = process.argv[2];
  newestMailCode(dir, to)
    .catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    })
    .then((code) => {
      if (code) return void process.stdout.write(`${code}\n`);
      process.stderr.write(`error: no mail with a code${to ? ` to ${to}` : ''} in ${dir}; sign in first (npm start writes mail there).\n`);
      process.exit(1);
    });
}
