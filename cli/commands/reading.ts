/** The read-only commands: users, a client's token activity, the admin audit log. */
import { type Command, itemsOf, listPages, moreHint, paging, pagingHelp } from '../command';
import { field, table } from '../output';

const users: Command = {
  words: ['users', 'list'],
  summary: 'list the users, newest first',
  usage: '[--search <text>] [--environment <id>] [--admin true|false] [--limit <n>] [--cursor <c>] [--all]',
  positionals: [],
  options: { search: { type: 'string' }, environment: { type: 'string' }, admin: { type: 'string' }, ...paging },
  optionHelp: [
    '--search <text>      an address, an exact user id, or a part of the name or address',
    '--environment <id>   only the users granted this environment (listed by user id)',
    '--admin true|false   only administrators, or only the others',
    ...pagingHelp,
  ],
  async run(context) {
    const { values } = context;
    const page = await listPages(context, '/api/admin/users', {
      search: values.search as string | undefined,
      environment_id: values.environment as string | undefined,
      admin: values.admin as string | undefined,
    });
    context.print(page, () =>
      table(itemsOf(page), [
        field('id'),
        field('email'),
        field('name'),
        field('admin'),
        field('test'),
        field('email_verified', 'verified'),
        field('created_at'),
      ]),
    );
    moreHint(context, page);
  },
};

const activity: Command = {
  words: ['activity'],
  summary: "a client's token requests, newest first, with the real reason of each refusal",
  usage: '<client_id> [--from <time>] [--to <time>] [--request-type <type>] [--success true|false] [--limit <n>] [--cursor <c>] [--all]',
  positionals: ['client_id'],
  options: { from: { type: 'string' }, to: { type: 'string' }, 'request-type': { type: 'string' }, success: { type: 'string' }, ...paging },
  optionHelp: [
    '--from, --to <time>     ISO 8601 times, inclusive',
    '--request-type <type>   a grant type, "api key" or "unknown"',
    '--success true|false    only the issued, or only the refused requests',
    ...pagingHelp,
  ],
  async run(context) {
    const { values } = context;
    const page = await listPages(context, `/api/admin/clients/${encodeURIComponent(context.args[0]!)}/activity`, {
      from: values.from as string | undefined,
      to: values.to as string | undefined,
      request_type: values['request-type'] as string | undefined,
      success: values.success as string | undefined,
    });
    context.print(page, () =>
      table(itemsOf(page), [
        field('at'),
        field('request_type', 'request'),
        field('success'),
        field('reason'),
        field('user_id', 'user'),
        field('api_key_id', 'key'),
        field('ip'),
      ]),
    );
    moreHint(context, page);
  },
};

const audit: Command = {
  words: ['audit'],
  summary: 'the admin audit log, newest first',
  usage: '[--from <time>] [--to <time>] [--type <type>] [--actor <id>] [--subject <id>] [--limit <n>] [--cursor <c>] [--all]',
  positionals: [],
  options: {
    from: { type: 'string' },
    to: { type: 'string' },
    type: { type: 'string' },
    actor: { type: 'string' },
    subject: { type: 'string' },
    ...paging,
  },
  optionHelp: [
    '--from, --to <time>   ISO 8601 times (default: the last 7 days; at most 92 days apart)',
    '--type <type>         one entry type (api_key.revoke) or a family (api_key, user)',
    '--actor <id>          only the changes this user or client made',
    '--subject <id>        only the entries about this client, user, key or environment id, or scope',
    ...pagingHelp,
  ],
  async run(context) {
    const { values } = context;
    const page = await listPages(context, '/api/admin/audit', {
      from: values.from as string | undefined,
      to: values.to as string | undefined,
      type: values.type as string | undefined,
      actor: values.actor as string | undefined,
      subject: values.subject as string | undefined,
    });
    context.print(page, () =>
      table(itemsOf(page), [
        field('at'),
        field('type'),
        field('actor'),
        { title: 'subject', value: (row) => row.client_id ?? row.user_id ?? row.environment_id ?? row.scope },
        field('key_id', 'key'),
        field('reason'),
      ]),
    );
    moreHint(context, page);
  },
};

export const readingCommands: readonly Command[] = [users, activity, audit];
