import { GetSecretValueCommand, PutSecretValueCommand } from '@aws-sdk/client-secrets-manager';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { generateKeySet, parseKeySet } from '../../lambdas/adapters/signing/key-set';
import { createHandler, type SigningKeyProperties } from '../../lambdas/custom-resources/signing-key';
import { customResourceEvent } from '../support/custom-resource-events';

const properties: SigningKeyProperties = {
  SecretId: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:signing-AbCdEf',
  BucketName: 'jwks-bucket',
  ObjectKey: 'jwks.json',
  Alg: 'ES256',
  MaxAgeSeconds: '300',
  MetricsNamespace: 'Tollgate',
  MetricsService: 'TestServer',
};

const event = (requestType: 'Create' | 'Update' | 'Delete') =>
  customResourceEvent(
    requestType,
    { logicalResourceId: 'SigningKey', resourceType: 'Custom::SigningKeySet', physicalResourceId: properties.SecretId },
    properties,
  );

function fakes(secretString: string) {
  const secret = { value: secretString, puts: 0 };
  const objects: PutObjectCommand['input'][] = [];
  const secrets = {
    send: async (command: unknown) => {
      if (command instanceof GetSecretValueCommand) return { SecretString: secret.value };
      if (command instanceof PutSecretValueCommand) {
        secret.value = command.input.SecretString!;
        secret.puts += 1;
        return {};
      }
      throw new Error('unexpected command');
    },
  };
  const s3 = {
    send: async (command: unknown) => {
      if (!(command instanceof PutObjectCommand)) throw new Error('unexpected command');
      objects.push(command.input);
      return {};
    },
  };
  const counted: string[][] = [];
  const metricsFor = (namespace: string, service: string) => ({
    count: (metric: string) => void counted.push([namespace, service, metric]),
  });
  return { handler: createHandler({ secrets, s3, metricsFor } as never), secret, objects, counted };
}

describe('signing-key custom resource', () => {
  test('Create over the placeholder secret stores a new key set and publishes only its public keys', async () => {
    const { handler, secret, objects } = fakes('placeholder-generated-by-secrets-manager');
    const log = jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const result = await handler(event('Create'));
    const set = parseKeySet(secret.value)!;
    expect(set.keys[0]!.alg).toBe('ES256');
    expect(result).toEqual({ PhysicalResourceId: properties.SecretId, Data: { CurrentKid: set.currentKid } });
    expect(objects).toHaveLength(1);
    expect(objects[0]).toMatchObject({
      Bucket: 'jwks-bucket',
      Key: 'jwks.json',
      ContentType: 'application/json',
      CacheControl: 'public, max-age=300',
    });
    const jwks = JSON.parse(String(objects[0]!.Body));
    expect(jwks.keys.map((k: { kid: string }) => k.kid)).toEqual([set.currentKid]);
    expect(jwks.keys[0]).not.toHaveProperty('d');
    expect(JSON.stringify(log.mock.calls)).toContain('jwks published');
    expect(JSON.stringify(log.mock.calls)).not.toContain(String(set.keys[0]!.d));
    log.mockRestore();
  });

  test('Update keeps an existing key set and republishes it', async () => {
    const existing = await generateKeySet('ES256');
    const { handler, secret, objects } = fakes(JSON.stringify(existing));
    jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
    await handler(event('Update'));
    expect(secret.puts).toBe(0);
    expect(JSON.parse(String(objects[0]!.Body)).keys[0].kid).toBe(existing.currentKid);
  });

  test('behaviour OPS-3: Create and Update count one KeyRotationSucceeded where the heartbeat alarm looks; Delete counts none', async () => {
    const { handler, counted } = fakes('placeholder-generated-by-secrets-manager');
    jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
    await handler(event('Create'));
    await handler(event('Update'));
    await handler(event('Delete'));
    expect(counted).toEqual([
      ['Tollgate', 'TestServer', 'KeyRotationSucceeded'],
      ['Tollgate', 'TestServer', 'KeyRotationSucceeded'],
    ]);
  });

  test('Delete leaves the retained secret and bucket alone', async () => {
    const { handler, secret, objects } = fakes('placeholder');
    await expect(handler(event('Delete'))).resolves.toEqual({ PhysicalResourceId: properties.SecretId });
    expect(secret.puts).toBe(0);
    expect(objects).toHaveLength(0);
  });
});
