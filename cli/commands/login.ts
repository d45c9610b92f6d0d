/** `tollgate login` and `logout`: the admin client's credentials, checked, then kept 0600. */
import { rmSync } from 'node:fs';
import { adminApi } from '../admin-api';
import type { Command } from '../command';
import { credentialsFile, normalizeIssuer, saveCredentials } from '../config-file';
import { UsageError } from '../failures';

export const login: Command = {
  words: ['login'],
  summary: 'check the admin client credentials and save them for later commands',
  usage: '[<issuer>] [--client-id <id>]',
  positionals: ['issuer?'],
  options: { 'client-id': { type: 'string' } },
  optionHelp: [
    '<issuer>          the server URL (or TOLLGATE_ISSUER), e.g. http://localhost:3000',
    '--client-id <id>  the admin API client (or TOLLGATE_CLIENT_ID)',
  ],
  details: [
    'The secret is read from TOLLGATE_CLIENT_SECRET, else from the first line of stdin, else',
    'asked for with echo off: never pass it as an argument. Credentials are saved to',
    '$XDG_CONFIG_HOME/tollgate/credentials.json (default ~/.config/...), readable by you only,',
    'once a client_credentials token with the admin scope reads the admin API.',
  ].join('\n'),
  async run({ io, args, values, print }) {
    const issuer = normalizeIssuer(args[0] ?? io.env.TOLLGATE_ISSUER ?? missing('<issuer> (or TOLLGATE_ISSUER)'));
    const clientId =
      (values['client-id'] as string | undefined) ?? io.env.TOLLGATE_CLIENT_ID ?? missing('--client-id (or TOLLGATE_CLIENT_ID)');
    const clientSecret = io.env.TOLLGATE_CLIENT_SECRET || (await io.readSecret(`Client secret for ${clientId}: `)).trim();
    if (!clientSecret) missing('the client secret');
    const credentials = { issuer, clientId, clientSecret };
    // Saved only once the credentials are known to work, so a typo never replaces good ones.
    await adminApi(credentials).call('GET', '/api/admin/settings');
    const file = saveCredentials(io.env, credentials);
    print({ issuer, client_id: clientId, credentials_file: file }, () => `Logged in to ${issuer} as ${clientId}; saved to ${file}\n`);
  },
};

export const logout: Command = {
  words: ['logout'],
  summary: 'forget the saved credentials',
  usage: '',
  positionals: [],
  options: {},
  optionHelp: [],
  async run({ io, print }) {
    const file = credentialsFile(io.env);
    rmSync(file, { force: true });
    print({ credentials_file: file, removed: true }, () => `Removed ${file}\n`);
  },
};

function missing(what: string): never {
  throw new UsageError(`missing ${what}`);
}
