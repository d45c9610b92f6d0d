/**
 * DynamoDB through our signed HTTP client (transport.ts) instead of the AWS SDK: the same
 * command names and input/output shapes as @aws-sdk/lib-dynamodb (GetCommand, PutCommand,
 * ..., `client.send(command)`), so the adapters changed only an import, with plain values
 * marshalled by @aws-sdk/util-dynamodb (removeUndefinedValues, as before).
 *
 * Why: the SDK client is most of every route's cold start (a 342 KiB bundle importing in
 * ~50 ms, the whole budget) and costs ~0.60 ms of CPU per call against ~0.13 ms for the
 * same request as a plain keep-alive POST (../shared/research/cpu-per-token.md). What the
 * SDK did that we rely on is kept: SigV4, keep-alive, bounded connect and request times,
 * standard-mode retries (retry.ts; 4 attempts, as the SDK's DynamoDB default) and errors
 * named as the service names them, carrying the reply's fields (errors.ts).
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { randomUUID } from 'node:crypto';
import type {
  BatchGetCommandInput,
  BatchGetCommandOutput,
  BatchWriteCommandInput,
  BatchWriteCommandOutput,
  DeleteCommandInput,
  DeleteCommandOutput,
  GetCommandInput,
  GetCommandOutput,
  PutCommandInput,
  PutCommandOutput,
  QueryCommandInput,
  QueryCommandOutput,
  ScanCommandInput,
  ScanCommandOutput,
  TransactWriteCommandInput,
  TransactWriteCommandOutput,
  UpdateCommandInput,
  UpdateCommandOutput,
} from '@aws-sdk/lib-dynamodb';
import { jsonServiceError } from './errors';
import { Retrier, type RetryPolicy } from './retry';
import { type AwsEndpointOptions, AwsTransport } from './transport';

export type {
  AttributeValue,
  BatchGetCommandInput,
  BatchGetCommandOutput,
  BatchWriteCommandOutput,
  DeleteCommandOutput,
  GetCommandOutput,
  PutCommandOutput,
  QueryCommandOutput,
  ScanCommandOutput,
  TransactWriteCommandOutput,
  UpdateCommandOutput,
  BatchWriteCommandInput,
  DeleteCommandInput,
  GetCommandInput,
  PutCommandInput,
  QueryCommandInput,
  ScanCommandInput,
  TransactWriteCommandInput,
  UpdateCommandInput,
};

type Doc = Record<string, unknown>;
type Wire = Record<string, unknown>;
type WireItem = Record<string, AttributeValue>;

const toWire = (value: unknown): WireItem | undefined =>
  value === undefined ? undefined : marshall(value as Doc, { removeUndefinedValues: true });
const fromWire = (value: unknown): Doc | undefined => (value === undefined ? undefined : unmarshall(value as WireItem));
const mapValues = <T, U>(record: Record<string, T> | undefined, map: (value: T) => U): Record<string, U> | undefined =>
  record === undefined ? undefined : Object.fromEntries(Object.entries(record).map(([key, value]) => [key, map(value)]));

/** Marshals the fields of one request part that hold plain values; the rest (names, expressions) goes as is. */
function marshalledPart(part: Doc | undefined): Wire | undefined {
  if (part === undefined) return undefined;
  const wire: Wire = { ...part };
  for (const field of ['Key', 'Item', 'ExpressionAttributeValues', 'ExclusiveStartKey'] as const) {
    if (part[field] !== undefined) wire[field] = toWire(part[field]);
  }
  return wire;
}

type WriteRequest = { PutRequest?: { Item?: Doc }; DeleteRequest?: { Key?: Doc } };
const writeRequest = (request: WriteRequest, convert: (value: unknown) => unknown) => ({
  ...(request.PutRequest ? { PutRequest: { ...request.PutRequest, Item: convert(request.PutRequest.Item) } } : {}),
  ...(request.DeleteRequest ? { DeleteRequest: { ...request.DeleteRequest, Key: convert(request.DeleteRequest.Key) } } : {}),
});
type KeysAndAttributes = { Keys?: Doc[] };
const keysAndAttributes = (entry: KeysAndAttributes, convert: (value: unknown) => unknown) => ({
  ...entry,
  Keys: entry.Keys?.map(convert),
});

/** One DynamoDB operation: its name on the wire, and how its input and output are (un)marshalled. */
export abstract class DynamoCommand<Input extends object, Output extends object> {
  /** Only for type inference of `send`. */
  declare readonly outputType: Output;
  abstract readonly operation: string;
  constructor(readonly input: Input) {}
  wireInput(): Wire {
    return marshalledPart(this.input as Doc)!;
  }
  abstract output(wire: Wire): Omit<Output, '$metadata'>;
}

export class GetCommand extends DynamoCommand<GetCommandInput, GetCommandOutput> {
  readonly operation = 'GetItem';
  output(wire: Wire) {
    return { ...wire, Item: fromWire(wire.Item) };
  }
}

export class PutCommand extends DynamoCommand<PutCommandInput, PutCommandOutput> {
  readonly operation = 'PutItem';
  output(wire: Wire) {
    return { ...wire, Attributes: fromWire(wire.Attributes) } as Omit<PutCommandOutput, '$metadata'>;
  }
}

export class UpdateCommand extends DynamoCommand<UpdateCommandInput, UpdateCommandOutput> {
  readonly operation = 'UpdateItem';
  output(wire: Wire) {
    return { ...wire, Attributes: fromWire(wire.Attributes) } as Omit<UpdateCommandOutput, '$metadata'>;
  }
}

export class DeleteCommand extends DynamoCommand<DeleteCommandInput, DeleteCommandOutput> {
  readonly operation = 'DeleteItem';
  output(wire: Wire) {
    return { ...wire, Attributes: fromWire(wire.Attributes) } as Omit<DeleteCommandOutput, '$metadata'>;
  }
}

const pageOutput = (wire: Wire) => ({
  ...wire,
  Items: (wire.Items as WireItem[] | undefined)?.map((item) => unmarshall(item)),
  LastEvaluatedKey: fromWire(wire.LastEvaluatedKey),
});

export class QueryCommand extends DynamoCommand<QueryCommandInput, QueryCommandOutput> {
  readonly operation = 'Query';
  output(wire: Wire) {
    return pageOutput(wire) as Omit<QueryCommandOutput, '$metadata'>;
  }
}

export class ScanCommand extends DynamoCommand<ScanCommandInput, ScanCommandOutput> {
  readonly operation = 'Scan';
  output(wire: Wire) {
    return pageOutput(wire) as Omit<ScanCommandOutput, '$metadata'>;
  }
}

export class BatchGetCommand extends DynamoCommand<BatchGetCommandInput, BatchGetCommandOutput> {
  readonly operation = 'BatchGetItem';
  override wireInput(): Wire {
    return {
      ...this.input,
      RequestItems: mapValues(this.input.RequestItems as Record<string, KeysAndAttributes>, (e) => keysAndAttributes(e, toWire)),
    };
  }
  output(wire: Wire) {
    return {
      ...wire,
      Responses: mapValues(wire.Responses as Record<string, WireItem[]> | undefined, (items) => items.map((item) => unmarshall(item))),
      UnprocessedKeys: mapValues(wire.UnprocessedKeys as Record<string, KeysAndAttributes> | undefined, (e) =>
        keysAndAttributes(e, fromWire),
      ),
    } as Omit<BatchGetCommandOutput, '$metadata'>;
  }
}

export class BatchWriteCommand extends DynamoCommand<BatchWriteCommandInput, BatchWriteCommandOutput> {
  readonly operation = 'BatchWriteItem';
  override wireInput(): Wire {
    return {
      ...this.input,
      RequestItems: mapValues(this.input.RequestItems as Record<string, WriteRequest[]>, (requests) =>
        requests.map((r) => writeRequest(r, toWire)),
      ),
    };
  }
  output(wire: Wire) {
    return {
      ...wire,
      UnprocessedItems: mapValues(wire.UnprocessedItems as Record<string, WriteRequest[]> | undefined, (requests) =>
        requests.map((r) => writeRequest(r, fromWire)),
      ),
    } as Omit<BatchWriteCommandOutput, '$metadata'>;
  }
}

type TransactPart = 'Put' | 'Update' | 'Delete' | 'ConditionCheck';

export class TransactWriteCommand extends DynamoCommand<TransactWriteCommandInput, TransactWriteCommandOutput> {
  readonly operation = 'TransactWriteItems';
  override wireInput(): Wire {
    return {
      ...this.input,
      // An idempotency token, as the SDK fills in: a retry of a transaction whose reply was lost
      // then succeeds again instead of failing its own conditions (DynamoDB keeps it 10 minutes).
      // wireInput() runs once per send(), so every attempt carries the same token.
      ClientRequestToken: this.input.ClientRequestToken ?? randomUUID(),
      TransactItems: (this.input.TransactItems as Partial<Record<TransactPart, Doc>>[] | undefined)?.map((item) => {
        const wire: Wire = {};
        for (const [part, value] of Object.entries(item)) wire[part] = marshalledPart(value);
        return wire;
      }),
    };
  }
  output(wire: Wire) {
    return wire as Omit<TransactWriteCommandOutput, '$metadata'>;
  }
}

/** One attempt as it goes on the wire: the operation and its marshalled input. */
export interface DynamoAttempt {
  readonly operation: string;
  readonly input: Wire;
}

/**
 * Wraps every attempt inside the retry loop, as the network and DynamoDB would: it may fail
 * an attempt before sending it, or send it and lose the reply. Fault-injection tests only.
 */
export type AttemptHook = (attempt: DynamoAttempt, send: () => Promise<Wire>) => Promise<Wire>;

export interface DynamoClientOptions extends Omit<AwsEndpointOptions, 'service' | 'connectTimeout' | 'requestTimeout'> {
  readonly connectTimeout?: number;
  readonly requestTimeout?: number;
  readonly retry?: Partial<RetryPolicy>;
}

export class DynamoDocumentClient {
  private readonly transport: AwsTransport;
  private readonly retrier: Retrier;
  /** See AttemptHook. */
  attemptHook: AttemptHook | undefined;

  constructor(options: DynamoClientOptions) {
    // Bounds: DynamoDB answers in milliseconds; a reply later than this is treated as lost and
    // retried (our writes are conditional or idempotent: the fault tests prove it).
    this.transport = new AwsTransport({ connectTimeout: 1000, requestTimeout: 3000, ...options, service: 'dynamodb' });
    this.retrier = new Retrier({ maxAttempts: 4, ...options.retry });
  }

  async send<Output extends object>(command: DynamoCommand<object, Output>): Promise<Output> {
    const operation = command.operation;
    const input = command.wireInput();
    const request = {
      method: 'POST' as const,
      path: '/',
      headers: { 'content-type': 'application/x-amz-json-1.0', 'x-amz-target': `DynamoDB_20120810.${operation}` },
      body: JSON.stringify(input),
    };
    const once = async (): Promise<Wire> => {
      const reply = await this.transport.send(request);
      if (reply.status !== 200) throw jsonServiceError(reply.status, reply.body, reply.headers);
      return JSON.parse(reply.body) as Wire;
    };
    let attempts = 0;
    const wire = await this.retrier.run(() => {
      attempts += 1;
      const hook = this.attemptHook;
      return hook ? hook({ operation, input }, once) : once();
    });
    return { ...command.output(wire), $metadata: { httpStatusCode: 200, attempts } } as Output;
  }

  /** Closes idle connections, so a process (a test, a script) can exit. */
  destroy(): void {
    this.transport.close();
  }
}
