/** `tollgate clients …`: the admin API's clients (docs/admin-api.md#clients). */
import type { Json } from '../admin-api';
import { type Command, itemsOf, listPages, moreHint, paging, pagingHelp } from '../command';
import { field, record, table } from '../output';

const path = (clientId: string) => `/api/admin/clients/${encodeURIComponent(clientId)}`;

const columns = [
  field('client_id'),
  field('name'),
  field('type'),
  field('environment_id', 'environment'),
  field('registration_type', 'registration'),
  field('scopes'),
  field('created_at'),
];

const list: Command = {
  words: ['clients', 'list'],
  summary: 'list the clients an admin created (or, with --dynamic, the self-registered ones), newest first',
  usage: '[--dynamic] [--search <text>] [--type public|confidential] [--environment <id>] [--limit <n>] [--cursor <c>] [--all]',
  positionals: [],
  options: {
    dynamic: { type: 'boolean' },
    search: { type: 'string' },
    type: { type: 'string' },
    environment: { type: 'string' },
    ...paging,
  },
  optionHelp: [
    '--dynamic              clients registered through POST /api/register',
    '--search <text>        an exact client id, or a part of the name or id (any case)',
    '--type <type>          public or confidential',
    '--environment <id>     only the clients of this environment',
    ...pagingHelp,
  ],
  async run(context) {
    const { values } = context;
    // Behaviour CLI-5: each option is the admin API's query parameter of the same meaning (ADMIN-21).
    const page = await listPages(context, '/api/admin/clients', {
      registration_type: values.dynamic ? 'dynamic' : undefined,
      search: values.search as string | undefined,
      type: values.type as string | undefined,
      environment_id: values.environment as string | undefined,
    });
    context.print(page, () => table(itemsOf(page), columns));
    moreHint(context, page);
  },
};

const create: Command = {
  words: ['clients', 'create'],
  summary: 'create a client; a confidential one gets its secret, shown this once',
  usage:
    '--name <name> --environment <id> [--type confidential|public] [--scope <s>]... [--redirect-uri <u>]... [--grant-type <g>]... [--admin] [--test]',
  positionals: [],
  options: {
    name: { type: 'string' },
    environment: { type: 'string' },
    type: { type: 'string', default: 'confidential' },
    scope: { type: 'string', multiple: true },
    'redirect-uri': { type: 'string', multiple: true },
    'grant-type': { type: 'string', multiple: true },
    admin: { type: 'boolean' },
    test: { type: 'boolean' },
  },
  optionHelp: [
    '--name <name>         1-200 characters',
    '--environment <id>    an existing environment (GET /api/admin/environments)',
    '--type <type>         confidential (default: a generated secret) or public (PKCE)',
    '--scope <s>           a scope of the catalog; repeat for more',
    '--redirect-uri <u>    exact redirect URI; repeat for more (needed for authorization_code)',
    '--grant-type <g>      repeat for more; the server picks the defaults when omitted',
    '--admin               an admin API client (confidential, client_credentials, admin scope)',
    '--test                a test client',
  ],
  async run(context) {
    const { values } = context;
    const body: Json = { type: values.type, name: values.name, environment_id: values.environment };
    if (values.scope) body.scopes = values.scope;
    if (values['redirect-uri']) body.redirect_uris = values['redirect-uri'];
    if (values['grant-type']) body.grant_types = values['grant-type'];
    if (values.admin) body.admin = true;
    if (values.test) body.test = true;
    const created = await context.api().call('POST', '/api/admin/clients', { body });
    context.print(created, () => record(created));
    if (created.client_secret && !context.json) context.io.stderr('The client secret is shown this once: store it now.\n');
  },
};

const get: Command = {
  words: ['clients', 'get'],
  summary: 'show one client',
  usage: '<client_id>',
  positionals: ['client_id'],
  options: {},
  optionHelp: [],
  async run(context) {
    const client = await context.api().call('GET', path(context.args[0]!));
    context.print(client, () => record(client));
  },
};

const remove: Command = {
  words: ['clients', 'delete'],
  summary: 'delete a client: no more tokens for it, its refresh tokens and API keys stop working',
  usage: '<client_id>',
  positionals: ['client_id'],
  options: {},
  optionHelp: [],
  async run(context) {
    const clientId = context.args[0]!;
    await context.api().call('DELETE', path(clientId));
    context.print({ client_id: clientId, deleted: true }, () => `Deleted client ${clientId}\n`);
  },
};

const rotateSecret: Command = {
  words: ['clients', 'rotate-secret'],
  summary: 'give a confidential client a new secret, shown this once; the old one works on for the overlap',
  usage: '<client_id> [--overlap <seconds>]',
  positionals: ['client_id'],
  options: { overlap: { type: 'string' } },
  optionHelp: ['--overlap <seconds>   how long the old secret still works: 0 to 604800, default 86400 (24 h)'],
  async run(context) {
    const overlap = context.values.overlap;
    const body: Json = overlap === undefined ? {} : { overlap_seconds: Number(overlap) };
    const rotated = await context.api().call('POST', `${path(context.args[0]!)}/secret`, { body });
    context.print(rotated, () => record(rotated));
    if (!context.json) context.io.stderr('The new client secret is shown this once: store it now.\n');
  },
};

export const clientCommands: readonly Command[] = [list, create, get, remove, rotateSecret];
