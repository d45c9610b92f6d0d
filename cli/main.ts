/**
 * Finds the command named by the first words, parses its options (node:util parseArgs, strict),
 * runs it and turns a failure into its exit code: 2 for a wrong call, 1 for the server's refusal,
 * printed as the server's `error: error_description`.
 */
import { parseArgs } from 'node:util';
import { adminApi, type AdminApi } from './admin-api';
import type { Command, Context, Io, Values } from './command';
import { clientCommands } from './commands/clients';
import { keyCommands } from './commands/keys';
import { login, logout } from './commands/login';
import { readingCommands } from './commands/reading';
import { loadCredentials } from './config-file';
import { ServerError, UsageError } from './failures';

export type { Io } from './command';

export const commands: readonly Command[] = [login, logout, ...clientCommands, ...keyCommands, ...readingCommands];

const common = ["--json           print the server's JSON instead of a table", '-h, --help       this help'];

function commandHelp(command: Command): string {
  const lines = [
    `Usage: tollgate ${command.words.join(' ')} ${command.usage}`.trimEnd(),
    '',
    `${command.summary[0]!.toUpperCase()}${command.summary.slice(1)}.`,
  ];
  if (command.details) lines.push('', command.details);
  const options = [...command.optionHelp, ...common].map((line) => line.split(/ {2,}/) as [string, string]);
  const width = Math.max(...options.map(([flags]) => flags.length));
  lines.push('', 'Options:', ...options.map(([flags, text]) => `  ${flags.padEnd(width)}  ${text}`));
  return `${lines.join('\n')}\n`;
}

function overview(group?: string): string {
  const shown = commands.filter((command) => !group || command.words[0] === group);
  const width = Math.max(...shown.map((command) => command.words.join(' ').length));
  const lines = [
    group ? `Usage: tollgate ${group} <command> [options]` : 'Usage: tollgate <command> [options]',
    '',
    'The admin API of a Tollgate server from a terminal. Commands:',
    ...shown.map((command) => `  ${command.words.join(' ').padEnd(width)}  ${command.summary}`),
    '',
    `"tollgate <command> --help" explains a command. Credentials: "tollgate login", or`,
    'TOLLGATE_ISSUER, TOLLGATE_CLIENT_ID and TOLLGATE_CLIENT_SECRET in the environment.',
  ];
  return `${lines.join('\n')}\n`;
}

function find(argv: readonly string[]): Command | undefined {
  return commands.find((command) => command.words.every((word, i) => argv[i] === word));
}

function parse(command: Command, argv: readonly string[]): { values: Values; args: string[] } {
  try {
    const parsed = parseArgs({
      args: argv.slice(command.words.length),
      options: { ...command.options, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
    return { values: parsed.values as Values, args: parsed.positionals };
  } catch (error) {
    throw new UsageError((error as Error).message.split('\n')[0]!);
  }
}

function checkArity(command: Command, args: readonly string[]): void {
  const required = command.positionals.filter((name) => !name.endsWith('?'));
  if (args.length < required.length) throw new UsageError(`missing <${required[args.length]}>`);
  if (args.length > command.positionals.length) throw new UsageError(`unexpected argument "${args[command.positionals.length]}"`);
}

/** Help asked for goes to stdout; help instead of a command that was not given, to stderr. */
function answer(io: Io, text: string, code: number): number {
  if (code === 0) io.stdout(text);
  else io.stderr(text);
  return code;
}

export async function runCli(argv: readonly string[], io: Io): Promise<number> {
  const groups = new Set(commands.map((command) => command.words[0]!));
  const command = find(argv);
  if (!command) {
    const [first, second] = argv;
    const asksHelp = argv.length === 0 || argv.includes('--help') || argv.includes('-h') || first === 'help';
    if (asksHelp && (!first || first.startsWith('-') || first === 'help')) return answer(io, overview(), 0);
    if (first && groups.has(first) && (asksHelp || second === undefined)) return answer(io, overview(first), asksHelp ? 0 : 2);
    io.stderr(
      `tollgate: unknown command "${argv
        .filter((word) => !word.startsWith('-'))
        .slice(0, 2)
        .join(' ')}"\n\n${overview()}`,
    );
    return 2;
  }
  let json = false;
  try {
    const { values, args } = parse(command, argv);
    json = values.json === true;
    if (values.help) return answer(io, commandHelp(command), 0);
    checkArity(command, args);
    let api: AdminApi | undefined;
    const context: Context = {
      io,
      values,
      args,
      json,
      api: () => (api ??= adminApi(loadCredentials(io.env))),
      print: (body, human) => io.stdout(json ? `${JSON.stringify(body, null, 2)}\n` : human()),
    };
    await command.run(context);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`tollgate ${command.words.join(' ')}: ${error.message}\n(see "tollgate ${command.words.join(' ')} --help")\n`);
      return 2;
    }
    if (error instanceof ServerError) {
      io.stderr(`${error.message}\n`);
      if (json) io.stdout(`${JSON.stringify({ error: error.error, error_description: error.description, status: error.status })}\n`);
      return 1;
    }
    throw error;
  }
}
