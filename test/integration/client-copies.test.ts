/**
 * Read-sharded client records (one client past one partition's 3,000 strongly
 * consistent reads a second; docs/storage-schema.md "Per-request ceilings"), against DynamoDB
 * Local: the copies sit on distinct partition keys, reads spread over them, every write
 * reaches every copy at once (a deletion counts at once on each, behaviour ADMIN-16), a failed write
 * leaves every copy as it was.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { allClientCopyKeys, clientCopyCount } from '../../lambdas/adapters/dynamodb/client-copies';
import type { Client } from '../../lambdas/core/model';
import { getClientRepository } from '../../lambdas/wiring/repositories';
import { getStorage } from '../../lambdas/wiring/storage';
import { createKeyAs, exchangeKey, useOutbox } from '../support/api-keys';
import { DynamoFaults, touches } from '../support/dynamo-faults';
import { basic, postToken } from '../support/token-calls';
import { adminClientToken, createClient, createEnvironment, createTokenClient, createUser, type TestClient } from '../support/fixtures';

useOutbox();

let environmentId: string;

beforeAll(async () => {
  environmentId = await createEnvironment();
});

afterEach(() => jest.restoreAllMocks());

const serviceClient = () =>
  createTokenClient({ environmentId, type: 'confidential', grantTypes: ['client_credentials'], scopes: ['read'] });

/** Every stored item of the client, copy 0 (the record) first; absent copies are undefined. */
async function storedCopies(clientId: string): Promise<(Record<string, unknown> | undefined)[]> {
  const { db, tables } = getStorage();
  return Promise.all(
    allClientCopyKeys(clientId).map(
      async (Key) => (await db.send(new GetCommand({ TableName: tables.main, Key, ConsistentRead: true }))).Item,
    ),
  );
}

/** Makes the next reads pick copy `copy` (the repository picks with Math.random). */
const pickCopy = (copy: number) => jest.spyOn(Math, 'random').mockReturnValue((copy + 0.5) / clientCopyCount);

const tokenFor = ({ client, secret }: TestClient) =>
  postToken({ grant_type: 'client_credentials', scope: 'read' }, { headers: { Authorization: basic(client.clientId, secret!) } });

const domainFields = (item: Record<string, unknown> | undefined) =>
  item && Object.fromEntries(Object.entries(item).filter(([name]) => !['pk', 'sk', 'gsi1pk', 'gsi1sk', 'writeToken'].includes(name)));

describe('the client record under 8 partition keys (docs/storage-schema.md, "Client copies")', () => {
  it('a created client is stored under 8 distinct partition keys with equal contents; only the record is listed', async () => {
    const { client } = await serviceClient();
    const copies = await storedCopies(client.clientId);
    expect(copies.every((item) => item !== undefined)).toBe(true);
    expect(new Set(copies.map((item) => item!.pk)).size).toBe(clientCopyCount);
    for (const item of copies) expect(domainFields(item)).toEqual(domainFields(copies[0]));
    expect(copies.filter((item) => item!.gsi1pk !== undefined).map((item) => item!.pk)).toEqual([`CLIENT#${client.clientId}`]);

    const listed: Client[] = [];
    let cursor: string | undefined;
    do {
      const page = await getClientRepository().list('static', 100, cursor);
      listed.push(...page.entries.map((entry) => entry.item).filter((c) => c.clientId === client.clientId));
      cursor = page.next;
    } while (cursor);
    expect(listed).toHaveLength(1);
  });

  it('400 reads of one client spread over all 8 copies, none taking more than a quarter of them', async () => {
    const { client } = await serviceClient();
    const faults = DynamoFaults.install(); // records every attempt; injects nothing
    try {
      for (let i = 0; i < 400; i++) expect(await getClientRepository().get(client.clientId)).toBeDefined();
    } finally {
      faults.uninstall();
    }
    const readPk = (input: Record<string, unknown>) => ((input.Key as { pk?: { S?: string } }).pk?.S ?? '') as string;
    const reads = faults.attempts.filter((a) => a.operation === 'GetItem').map((a) => readPk(a.input));
    expect(reads).toHaveLength(400); // one read each: no copy was missing
    const perCopy = allClientCopyKeys(client.clientId).map(({ pk }) => reads.filter((read) => read === pk).length);
    expect(perCopy.every((n) => n > 0)).toBe(true);
    expect(Math.max(...perCopy)).toBeLessThanOrEqual(100);
  });

  it('each copy serves the client: a client_credentials token from every one', async () => {
    const service = await serviceClient();
    for (let copy = 0; copy < clientCopyCount; copy++) {
      pickCopy(copy);
      expect((await tokenFor(service)).status).toBe(200);
      jest.restoreAllMocks();
    }
  });

  it('an edit reaches every copy before it returns; two concurrent edits both land on all of them', async () => {
    const { client } = await serviceClient();
    await Promise.all([
      getClientRepository().update(client.clientId, { name: 'Renamed' }),
      getClientRepository().update(client.clientId, { scopes: ['read', 'write'] }),
    ]);
    for (const item of await storedCopies(client.clientId)) expect(item).toMatchObject({ name: 'Renamed', scopes: ['read', 'write'] });
    for (let copy = 0; copy < clientCopyCount; copy++) {
      pickCopy(copy);
      expect(await getClientRepository().get(client.clientId)).toMatchObject({ name: 'Renamed', scopes: ['read', 'write'] });
      jest.restoreAllMocks();
    }
  });

  it('behaviour ADMIN-16: a deleted client is refused at once on every copy (invalid_client), and no copy is left', async () => {
    const service = await serviceClient();
    expect(await getClientRepository().delete(service.client.clientId)).toBe(true);
    expect(await storedCopies(service.client.clientId)).toEqual(Array(clientCopyCount).fill(undefined));
    for (let copy = 0; copy < clientCopyCount; copy++) {
      pickCopy(copy);
      const answer = await tokenFor(service);
      expect(answer.status).toBe(401);
      expect(answer.body.error).toBe('invalid_client');
      expect(await getClientRepository().get(service.client.clientId)).toBeUndefined();
      jest.restoreAllMocks();
    }
  });

  it('behaviour CIMD-6: a deleted metadata-document client leaves a tombstone on every copy, read as blocked from each', async () => {
    const url = `https://app.example.test/${Date.now()}/client.json`;
    const { client } = await serviceClient();
    await getClientRepository().saveMetadataDocumentClient({ ...client, clientId: url, registrationType: 'dynamic' });
    expect(await getClientRepository().delete(url)).toBe(true);
    for (const item of await storedCopies(url)) expect(item).toMatchObject({ blocked: true });
    for (let copy = 0; copy < clientCopyCount; copy++) {
      pickCopy(copy);
      expect(await getClientRepository().getMetadataDocumentClient(url)).toBe('blocked');
      jest.restoreAllMocks();
    }
  });
});

describe('nothing half-written when a multi-copy write fails (behaviour ERR-4; test/support/dynamo-faults.ts)', () => {
  let faults: DynamoFaults;
  beforeEach(() => {
    faults = DynamoFaults.install();
    // Every attempt of any write that names copy 5 fails before it reaches the database.
    for (const operation of ['PutItem', 'UpdateItem', 'DeleteItem', 'TransactWriteItems', 'BatchWriteItem']) {
      faults.fail({ operation, phase: 'before', where: (a) => touches(a, 'COPY5#') });
    }
  });
  afterEach(() => faults.uninstall());

  it('a failed edit leaves the record and all 7 copies unchanged', async () => {
    faults.clear();
    const { client } = await serviceClient();
    const before = await storedCopies(client.clientId);
    faults.fail({ operation: 'TransactWriteItems', phase: 'before', where: (a) => touches(a, 'COPY5#') });
    await expect(getClientRepository().update(client.clientId, { name: 'Never' })).rejects.toThrow();
    expect(await storedCopies(client.clientId)).toEqual(before);
  });

  it('a failed deletion leaves the client whole on every copy', async () => {
    faults.clear();
    const service = await serviceClient();
    faults.fail({ operation: 'TransactWriteItems', phase: 'before', where: (a) => touches(a, 'COPY5#') });
    await expect(getClientRepository().delete(service.client.clientId)).rejects.toThrow();
    faults.clear();
    expect((await storedCopies(service.client.clientId)).every((item) => item?.name === 'Test client')).toBe(true);
  });

  it('a failed creation leaves no copy behind', async () => {
    await expect(serviceClient()).rejects.toThrow();
    expect(faults.injected.length).toBeGreaterThan(0);
    const created = faults.attempts.find((a) => a.operation === 'TransactWriteItems' && touches(a, 'CLIENT#'));
    const clientId = String((created!.input.TransactItems as { Put?: { Item: { clientId: { S: string } } } }[])[0]!.Put!.Item.clientId.S);
    expect(await storedCopies(clientId)).toEqual(Array(clientCopyCount).fill(undefined));
  });

  it('an unconfirmed creation (every reply lost, so it landed) is taken back: no copy left', async () => {
    faults.clear();
    faults.fail({ operation: 'TransactWriteItems', phase: 'after', times: 4, where: (a) => touches(a, 'COPY5#') });
    await expect(serviceClient()).rejects.toThrow();
    expect(faults.injected.map((f) => f.phase)).toEqual(['after', 'after', 'after', 'after']);
    const created = faults.attempts.find((a) => a.operation === 'TransactWriteItems' && touches(a, 'CLIENT#'));
    const clientId = String((created!.input.TransactItems as { Put?: { Item: { clientId: { S: string } } } }[])[0]!.Put!.Item.clientId.S);
    expect(await storedCopies(clientId)).toEqual(Array(clientCopyCount).fill(undefined));
  });
});

describe('the API-key exchange reads one copy of the client in its BatchGetItem (behaviour KEYX-5)', () => {
  const newKey = async () => {
    const client = await createClient({ scopes: ['read'] });
    const user = await createUser();
    const created = await createKeyAs((await adminClientToken()).token, client.clientId, { userId: user.id });
    expect(created.status).toBe(201);
    return { client, key: String(created.body.api_key) };
  };

  it('behaviour ADMIN-16: once the client is deleted, its key is refused whichever copy the exchange reads', async () => {
    const { client, key } = await newKey();
    expect((await exchangeKey({ bearer: key })).status).toBe(200); // the key is verified and cached here
    expect(await getClientRepository().delete(client.clientId)).toBe(true);
    for (let copy = 0; copy < clientCopyCount; copy++) {
      pickCopy(copy);
      expect((await exchangeKey({ bearer: key })).status).toBe(401);
      jest.restoreAllMocks();
    }
  });
});
