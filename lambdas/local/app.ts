/**
 * `npm start`: the whole service on this machine. Takes the port, starts DynamoDB Local
 * (or joins a running one), creates the tables from the shared definitions, makes a
 * signing key and the first-start data once, sets the same variables the stack gives
 * the functions, and serves the route table through the handler modules.
 */
import { constants } from 'node:fs';
import { access, chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { createHasher as argon2Hasher } from '../adapters/argon2-hasher';
import { createDocumentClient, createDynamoClient } from '../adapters/dynamodb/client';
import { generateKeySet, parseKeySet } from '../adapters/signing/key-set';
import { generateDeviceKeys, parseDeviceKeys } from '../adapters/device-cookie-keys';
import { cryptoRandom, systemClock } from '../adapters/system';
import { seed, type SeededCredentials } from '../bootstrap/seed';
import { loadConfig, parseSettings } from '../config/settings';
import { LocalSetupError, startDynamoDbLocal, type DynamoDbLocal } from './dynamodb-local';
import { startLocalServer } from './server';
import { startStreamPoller, type StreamPoller } from './stream-poller';
import { ensureTables, physicalTableNames, tableEnv } from './tables';
import { resetContainer } from '../wiring/container';
import * as keys from '../adapters/dynamodb/keys/item-keys';
import { countedKeys } from '../adapters/dynamodb/keys/counted-records';
import { getContainer } from '../wiring/container';

export interface LocalAppOptions {
  /** 0 picks a free port. */
  readonly port: number;
  /** Where data, the signing key and bootstrap.json live; omit for a throwaway in-memory run. */
  readonly dataDir?: string;
  /** Join this DynamoDB Local instead of starting one (the test run shares one). */
  readonly dynamoEndpoint?: string;
  readonly tablePrefix?: string;
  /** The user's settings (normally process.env); they override the local defaults. */
  readonly env: Readonly<Record<string, string | undefined>>;
}

export interface BootstrapFile extends SeededCredentials {
  readonly issuer: string;
}

export interface LocalApp {
  readonly url: string;
  readonly dataDir: string;
  /** Where notification mail is written, one JSON file per message. */
  readonly outboxDir: string;
  readonly bootstrapFile: string;
  readonly bootstrap: BootstrapFile;
  /** True when this start seeded the data (credentials are new). */
  readonly firstStart: boolean;
  close(): Promise<void>;
}

async function prepareDataDir(dataDir: string | undefined): Promise<string> {
  const dir = dataDir ? resolve(dataDir) : await mkdtemp(join(tmpdir(), 'authz-local-'));
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await access(dir, constants.W_OK);
    await writeFile(join(dir, '.write-check'), '');
    await rm(join(dir, '.write-check'));
  } catch (error) {
    throw new LocalSetupError(
      `The data directory ${dir} is not writable (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); set DATA_DIR to a folder you can write.`,
    );
  }
  return dir;
}

async function writePrivate(path: string, value: unknown): Promise<void> {
  await writeFile(path, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
  await chmod(path, 0o600);
}

async function readJson<T>(path: string): Promise<T | undefined> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

export async function startLocalApp(options: LocalAppOptions): Promise<LocalApp> {
  const dataDir = await prepareDataDir(options.dataDir);
  const signingKeyFile = join(dataDir, 'signing-keys.json');
  const deviceCookieKeyFile = join(dataDir, 'device-cookie-keys.json');
  const bootstrapFile = join(dataDir, 'bootstrap.json');
  // Fail on bad settings before starting anything: the local defaults stand in for what is known later.
  loadConfig({ ...localDefaults('http://localhost', 'env_placeholder'), ...definedOnly(options.env) });
  const early = parseSettings(options.env, ['SIGNING_ALG', 'HASH_METHOD', 'CLIENT_ID_PREFIX']);

  let resolveReady!: () => void;
  let rejectReady!: (e: unknown) => void;
  const ready = new Promise<void>((res, rej) => {
    resolveReady = res;
    rejectReady = rej;
  });
  ready.catch(() => undefined);
  const siteAssetsDir = join(dataDir, 'assets');
  const running = await startLocalServer({ port: options.port, signingKeyFile, siteAssetsDir, ready }).catch(
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') {
        throw new LocalSetupError(`Port ${options.port} is already in use; choose another with PORT (for example PORT=3001 npm start).`);
      }
      throw error;
    },
  );

  let dynamo: DynamoDbLocal | undefined;
  let poller: StreamPoller | undefined;
  try {
    const endpoint =
      options.dynamoEndpoint ??
      (dynamo = await startDynamoDbLocal({ dbPath: options.dataDir ? await mkdirp(join(dataDir, 'dynamodb')) : undefined })).endpoint;
    const tables = physicalTableNames(options.tablePrefix ?? 'authz-');
    const client = createDynamoClient({ endpoint });
    const db = createDocumentClient({ endpoint });
    await ensureTables(client, tables);

    if (!parseKeySet(await readFile(signingKeyFile, 'utf8').catch(() => undefined))) {
      await writePrivate(signingKeyFile, await generateKeySet(early.SIGNING_ALG));
    }
    // The device cookies' key (behaviour PWFAIL-6), kept with the data so a restart keeps every browser's standing.
    if (!parseDeviceKeys(await readFile(deviceCookieKeyFile, 'utf8').catch(() => undefined))) {
      await writePrivate(deviceCookieKeyFile, generateDeviceKeys());
    }

    let bootstrap = await readJson<BootstrapFile>(bootstrapFile);
    const seeded =
      bootstrap && (await db.send(new GetCommand({ TableName: tables.main, Key: keys.environment(bootstrap.environments.dcrId) }))).Item;
    const firstStart = !seeded;
    const issuer = running.url;
    if (firstStart) {
      const credentials = await seed(
        { db, tables, hasher: argon2Hasher(early.HASH_METHOD), random: cryptoRandom, clock: systemClock },
        {
          clientIdPrefix: early.CLIENT_ID_PREFIX,
          adminEmail: options.env.BOOTSTRAP_ADMIN_EMAIL,
          adminPassword: options.env.BOOTSTRAP_ADMIN_PASSWORD,
          adminClientSecret: options.env.BOOTSTRAP_ADMIN_CLIENT_SECRET,
        },
      );
      bootstrap = { issuer, ...credentials };
      await writePrivate(bootstrapFile, bootstrap);
    } else if (bootstrap!.issuer !== issuer) {
      bootstrap = { ...bootstrap!, issuer }; // another PORT this time
      await writePrivate(bootstrapFile, bootstrap);
    }

    const env: Record<string, string> = {
      ...localDefaults(issuer, bootstrap!.environments.dcrId),
      ...definedOnly(options.env),
      ...tableEnv(tables),
      DYNAMODB_ENDPOINT: endpoint,
      AWS_REGION: options.env.AWS_REGION ?? 'us-east-1',
      SIGNING_KEY_FILE: signingKeyFile,
      DEVICE_COOKIE_KEY_FILE: deviceCookieKeyFile,
      // Mail is written here as files instead of going through SES (lambdas/wiring/mail.ts).
      MAIL_OUTBOX_DIR: options.env.MAIL_OUTBOX_DIR ?? join(dataDir, 'outbox'),
      // The logo, laid out as in the JWKS bucket and served by the local server at /branding/* as CloudFront does.
      SITE_ASSETS_DIR: siteAssetsDir,
    };
    loadConfig(env); // throws ConfigError naming each bad variable
    Object.assign(process.env, env);
    resetContainer();
    poller = await startStreamPoller({
      endpoint,
      region: env.AWS_REGION!,
      client,
      tables: [
        { name: tables.main, filter: countedKeys.main },
        { name: tables.activity, filter: countedKeys.activity },
      ],
      // The function the streams invoke in AWS (lib/statistics-rollup.ts), loaded as the route handlers are (server.ts).
      handle: async (event) =>
        ((await import(join(__dirname, '..', 'jobs', 'roll-up-statistics'))) as { handler: (e: unknown) => Promise<unknown> }).handler(
          event,
        ),
      warn: (message, fields) => getContainer().log.warn(message, fields),
    });
    resolveReady();
    return {
      url: running.url,
      dataDir,
      outboxDir: env.MAIL_OUTBOX_DIR!,
      bootstrapFile,
      bootstrap: bootstrap!,
      firstStart,
      close: async () => {
        await poller?.close();
        await running.close();
        await dynamo?.stop();
        if (!options.dataDir) await rm(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rejectReady(error);
    await poller?.close();
    await running.close();
    await dynamo?.stop();
    throw error;
  }
}

/** Settings the local server supplies unless the user sets them. */
function localDefaults(issuer: string, dcrEnvironmentId: string): Record<string, string> {
  return {
    BASE_URL: issuer,
    JWKS_CDN_BASE_URL: issuer,
    MAIL_FROM: 'no-reply@example.com',
    DCR_ENVIRONMENT_ID: dcrEnvironmentId,
    // EMF metric documents mean something to CloudWatch only: the terminal shows the log lines
    // alone unless POWERTOOLS_METRICS_DISABLED=false is set (README "Operating it").
    POWERTOOLS_METRICS_DISABLED: 'true',
  };
}

async function mkdirp(dir: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  return dir;
}

function definedOnly(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
}
