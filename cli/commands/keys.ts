/** `tollgate keys …`: a client's API keys (docs/admin-api.md#api-keys). */
import type { Json } from '../admin-api';
import { type Command, itemsOf, listPages, moreHint, paging, pagingHelp } from '../command';
import { field, record, table } from '../output';

const path = (clientId: string) => `/api/admin/clients/${encodeURIComponent(clientId)}/api-keys`;

const keyFields = [
  'key_id',
  'client_id',
  'user_id',
  'name',
  'scopes',
  'status',
  'created_at',
  'created_by',
  'expires_at',
  'revoked_at',
  'last_used_at',
];

const create: Command = {
  words: ['keys', 'create'],
  summary: 'create an API key bound to a user; the key is shown this once',
  usage: '<client_id> --user <user_id> [--name <name>] [--expires-at <iso time>] [--scope <s>]...',
  positionals: ['client_id'],
  options: {
    user: { type: 'string' },
    name: { type: 'string' },
    'expires-at': { type: 'string' },
    scope: { type: 'string', multiple: true },
  },
  optionHelp: [
    '--user <user_id>       the user whose id becomes the sub of every token the key mints',
    '--name <name>          1-200 characters',
    '--expires-at <time>    ISO 8601 with Z or an offset, in the future',
    "--scope <s>            a subset of the client's scopes; repeat for more (default: all of them)",
  ],
  async run(context) {
    const { values } = context;
    const body: Json = { userId: values.user };
    if (values.name !== undefined) body.name = values.name;
    if (values['expires-at'] !== undefined) body.expiresAt = values['expires-at'];
    if (values.scope) body.scopes = values.scope;
    const created = await context.api().call('POST', path(context.args[0]!), { body });
    // The human form shows the full key once; its secret part alone would be a second copy.
    context.print(created, () => record(created, [...keyFields, 'api_key']));
    if (!context.json) context.io.stderr('The API key is shown this once: store it now.\n');
  },
};

const list: Command = {
  words: ['keys', 'list'],
  summary: "list a client's API keys, newest first",
  usage: '<client_id> [--status active|revoked|expired] [--limit <n>] [--cursor <c>] [--all]',
  positionals: ['client_id'],
  options: { status: { type: 'string' }, ...paging },
  optionHelp: ['--status <status>   only the active, revoked or expired keys', ...pagingHelp],
  async run(context) {
    const page = await listPages(context, path(context.args[0]!), { status: context.values.status as string | undefined });
    context.print(page, () =>
      table(itemsOf(page), [
        field('key_id'),
        field('name'),
        field('user_id', 'user'),
        field('status'),
        field('scopes'),
        field('expires_at'),
        field('last_used_at', 'last used'),
      ]),
    );
    moreHint(context, page);
  },
};

const revoke: Command = {
  words: ['keys', 'revoke'],
  summary: 'revoke an API key (tokens it already minted run out within their hour)',
  usage: '<client_id> <key_id>',
  positionals: ['client_id', 'key_id'],
  options: {},
  optionHelp: [],
  async run(context) {
    const [clientId, keyId] = context.args as [string, string];
    const revoked = await context.api().call('DELETE', `${path(clientId)}/${encodeURIComponent(keyId)}`);
    context.print(revoked, () => record(revoked, keyFields));
  },
};

export const keyCommands: readonly Command[] = [create, list, revoke];
