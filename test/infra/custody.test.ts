/**
 * Key custody as synthesized: resource policies naming the only principals that may
 * read or change the keys and credentials (behaviour CUSTODY-1).
 */
import { routes } from '../../lambdas/routes';
import { jwksObjectKey, siteAssetKeyPattern } from '../../lib/jwks';
import { logicalId, resources, synthesize, type Synthesized } from './synthesize';

const operators = [
  'arn:aws:iam::123456789012:role/platform-security',
  'arn:aws:iam::123456789012:role/aws-reserved/sso.amazonaws.com/*AWSReservedSSO_Admin_*',
];
let plain: Synthesized;
let named: Synthesized;
beforeAll(() => {
  plain = synthesize();
  named = synthesize({ KEY_OPERATOR_ARNS: operators.join(',') });
});

type Statement = { Effect: string; Principal: unknown; Action: string | string[]; Resource: unknown; Condition?: any; Sid?: string };

/** The statements of the resource policy attached to a secret. */
function secretPolicy(s: Synthesized, secret: { node: { defaultChild?: unknown } } & object): Statement[] {
  const id = logicalId(secret as never);
  const policies = Object.values(resources(s.template, 'AWS::SecretsManager::ResourcePolicy')).filter(
    (policy) => policy.Properties.SecretId.Ref === id,
  );
  expect(policies).toHaveLength(1);
  return policies[0]!.Properties.ResourcePolicy.Statement;
}

function bucketPolicy(s: Synthesized): Statement[] {
  const id = logicalId(s.stack.server.jwks.bucket);
  const policies = Object.values(resources(s.template, 'AWS::S3::BucketPolicy')).filter((policy) => policy.Properties.Bucket.Ref === id);
  expect(policies).toHaveLength(1);
  return policies[0]!.Properties.PolicyDocument.Statement;
}

/** The principals a Deny-everyone-else statement lets through: role logical ids, or literal ARNs. */
function exempted(statement: Statement): string[] {
  expect(statement.Effect).toBe('Deny');
  expect(statement.Principal).toEqual({ AWS: '*' });
  const arns = [statement.Condition.ArnNotLike['aws:PrincipalArn']].flat();
  return arns.map((arn: any) => (typeof arn === 'string' ? arn : arn['Fn::GetAtt'][0])).sort();
}

const denying = (statements: Statement[], action: string) => {
  const found = statements.filter((st) => st.Effect === 'Deny' && [st.Action].flat().includes(action));
  expect(found).toHaveLength(1);
  return found[0]!;
};

const rolesOf = (fns: readonly { role?: unknown }[]) => fns.map((fn) => logicalId(fn.role as never)).sort();

describe('behaviour CUSTODY-1: resource policies name who may read and change the keys and credentials', () => {
  test('the signing key set: read and written only by the signing routes, the rotation job and the deploy-time function that creates it', () => {
    const server = plain.stack.server;
    const signers = routes.filter((row) => row.signs).map((row) => server.functions[row.name]!);
    expect(signers.length).toBeGreaterThan(0);
    const statements = secretPolicy(plain, server.signingKeySecret);
    const expected = rolesOf([...signers, server.keyRotation.function, server.signingKeyHandler]);
    for (const action of ['secretsmanager:GetSecretValue', 'secretsmanager:PutSecretValue', 'secretsmanager:UpdateSecretVersionStage']) {
      expect(exempted(denying(statements, action))).toEqual(expected);
    }
    // Operators named for the other secrets get nothing here.
    expect(exempted(denying(secretPolicy(named, named.stack.server.signingKeySecret), 'secretsmanager:GetSecretValue'))).toEqual(
      rolesOf([
        ...routes.filter((row) => row.signs).map((row) => named.stack.server.functions[row.name]!),
        named.stack.server.keyRotation.function,
        named.stack.server.signingKeyHandler,
      ]),
    );
  });

  test('the device-cookie key: read only by the rows that say deviceCookies; with KEY_OPERATOR_ARNS, read and written by those operators too, and by nobody else', () => {
    const cookieRoles = (s: Synthesized) =>
      rolesOf(routes.filter((row) => row.deviceCookies).map((row) => s.stack.server.functions[row.name]!));
    const plainStatements = secretPolicy(plain, plain.stack.server.deviceCookieKeySecret);
    expect(exempted(denying(plainStatements, 'secretsmanager:GetSecretValue'))).toEqual(cookieRoles(plain));
    expect(plainStatements.filter((st) => [st.Action].flat().includes('secretsmanager:PutSecretValue'))).toEqual([]);

    const namedStatements = secretPolicy(named, named.stack.server.deviceCookieKeySecret);
    expect(exempted(denying(namedStatements, 'secretsmanager:GetSecretValue'))).toEqual([...cookieRoles(named), ...operators].sort());
    expect(exempted(denying(namedStatements, 'secretsmanager:PutSecretValue'))).toEqual([...operators].sort());
  });

  test('the bootstrap admin credentials: with KEY_OPERATOR_ARNS, read and written only by the deploy-time seed and those operators', () => {
    const statements = secretPolicy(named, named.stack.server.adminBootstrap.secret);
    const expected = [...rolesOf([named.stack.server.adminBootstrap.handler]), ...operators].sort();
    for (const action of ['secretsmanager:GetSecretValue', 'secretsmanager:PutSecretValue']) {
      expect(exempted(denying(statements, action))).toEqual(expected);
    }
    // Without operators a person must still read them once: IAM decides (and CUSTODY-4 empties them).
    expect(
      Object.values(resources(plain.template, 'AWS::SecretsManager::ResourcePolicy')).map((p) => p.Properties.SecretId.Ref),
    ).not.toContain(logicalId(plain.stack.server.adminBootstrap.secret));
  });

  test('jwks.json: written or deleted only by the rotation job and the deploy-time function; branding/* only by the logo rows', () => {
    const server = plain.stack.server;
    const statements = bucketPolicy(plain).filter((st) => st.Effect === 'Deny' && st.Condition?.ArnNotLike);
    const objectOf = (st: Statement) => JSON.stringify(st.Resource);
    const jwks = statements.filter((st) => objectOf(st).includes(`/${jwksObjectKey}`));
    const branding = statements.filter((st) => objectOf(st).includes(`/${siteAssetKeyPattern}`));
    expect(jwks).toHaveLength(1);
    expect(branding).toHaveLength(1);
    for (const st of [...jwks, ...branding]) {
      expect([st.Action].flat()).toEqual(expect.arrayContaining(['s3:PutObject*', 's3:DeleteObject*']));
    }
    expect(exempted(jwks[0]!)).toEqual(rolesOf([server.keyRotation.function, server.signingKeyHandler]));
    expect(exempted(branding[0]!)).toEqual(rolesOf(server.siteAssetFunctions));
  });

  test('KEY_OPERATOR_ARNS must be IAM principal ARNs', () => {
    expect(() => synthesize({ KEY_OPERATOR_ARNS: 'platform-security' })).toThrow(/KEY_OPERATOR_ARNS must be/);
  });
});

describe('behaviour CUSTODY-3: a change to the signing key or jwks.json by anyone but its publishers raises an alarm', () => {
  const rules = (s: Synthesized) => Object.values(resources(s.template, 'AWS::Events::Rule'));
  const ruleOf = (s: Synthesized, construct: object) => resources(s.template, 'AWS::Events::Rule')[logicalId(construct as never)]!;
  const publisherRoles = (s: Synthesized) => rolesOf([s.stack.server.keyRotation.function, s.stack.server.signingKeyHandler]);
  /** The role logical ids a rule's principal filter lets through. */
  const exemptRoles = (pattern: any): string[] => {
    const [notAssumed, notPublisher] = pattern.detail.userIdentity.$or;
    expect(notAssumed).toEqual({ type: [{ 'anything-but': ['AssumedRole'] }] });
    return notPublisher.sessionContext.sessionIssuer.arn[0]['anything-but'].map((arn: any) => arn['Fn::GetAtt'][0]).sort();
  };

  test('Secrets Manager changes to the signing-key secret (CloudTrail management events) by any other principal are logged', () => {
    const server = plain.stack.server;
    const rule = ruleOf(plain, server.keyChangeWatch.secretRule);
    const pattern = rule.Properties.EventPattern;
    expect(pattern.source).toEqual(['aws.secretsmanager']);
    expect(pattern['detail-type']).toEqual(['AWS API Call via CloudTrail']);
    expect(pattern.detail.eventName).toEqual(
      expect.arrayContaining([
        'PutSecretValue',
        'UpdateSecret',
        'UpdateSecretVersionStage',
        'RotateSecret',
        'DeleteSecret',
        'PutResourcePolicy',
      ]),
    );
    expect(pattern.detail.requestParameters.secretId).toContainEqual({ Ref: logicalId(server.signingKeySecret) });
    expect(pattern.detail.requestParameters.secretId).toHaveLength(3); // full ARN, partial ARN, name
    expect(exemptRoles(pattern)).toEqual(publisherRoles(plain));
    const log = server.keyChangeWatch.log;
    expect(JSON.stringify(rule.Properties.Targets)).toContain(JSON.stringify({ Ref: logicalId(log) }));
    expect(JSON.stringify(resources(plain.template, 'AWS::Logs::LogGroup')[logicalId(log)]!.Properties.LogGroupName)).toMatch(
      /^"\/aws\/events\//,
    );
  });

  test('S3 writes and deletes of jwks.json (CloudTrail data events, when a trail logs them) by any other principal are logged', () => {
    const server = plain.stack.server;
    const pattern = ruleOf(plain, server.keyChangeWatch.objectRule).Properties.EventPattern;
    expect(pattern.source).toEqual(['aws.s3']);
    expect(pattern.detail.eventName).toEqual(expect.arrayContaining(['PutObject', 'CopyObject', 'DeleteObject']));
    expect(pattern.detail.requestParameters).toEqual({ bucketName: [{ Ref: logicalId(server.jwks.bucket) }], key: [jwksObjectKey] });
    expect(exemptRoles(pattern)).toEqual(publisherRoles(plain));
  });

  test('EventBridge may write the change log, and one line in 5 minutes raises KeyMaterialChanged, sent to the alarm topic', () => {
    const server = named.stack.server;
    const policies = Object.values(resources(named.template, 'AWS::Logs::ResourcePolicy'));
    const policy = policies.map((p) => JSON.stringify(p.Properties.PolicyDocument)).find((doc) => doc.includes('events.amazonaws.com'));
    expect(policy).toContain('logs:PutLogEvents');
    expect(policy).toContain(logicalId(server.keyChangeWatch.log));

    const topic = 'arn:aws:sns:eu-west-1:123456789012:ops-alarms';
    const withTopic = synthesize({ ALARM_TOPIC_ARN: topic });
    const alarm = Object.values(resources(withTopic.template, 'AWS::CloudWatch::Alarm')).find((a) =>
      JSON.stringify(a.Properties.AlarmDescription).includes('CUSTODY-3'),
    )!;
    expect(alarm.Properties).toMatchObject({
      Namespace: 'AWS/Logs',
      MetricName: 'IncomingLogEvents',
      Statistic: 'Sum',
      Period: 300,
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      AlarmActions: [topic],
    });
    expect(alarm.Properties.Dimensions).toEqual([
      { Name: 'LogGroupName', Value: { Ref: logicalId(withTopic.stack.server.keyChangeWatch.log) } },
    ]);
  });

  test('without CloudTrail: S3 sends jwks.json writes and deletes to EventBridge, which runs the rotation job to compare them with the key set', () => {
    const server = plain.stack.server;
    const bucket = resources(plain.template, 'AWS::S3::Bucket')[logicalId(server.jwks.bucket)]!;
    expect(bucket.Properties.NotificationConfiguration).toEqual({ EventBridgeConfiguration: { EventBridgeEnabled: true } });
    const rule = ruleOf(plain, server.keyChangeWatch.verifyRule);
    expect(rule.Properties.EventPattern).toEqual({
      source: ['aws.s3'],
      'detail-type': ['Object Created', 'Object Deleted'],
      detail: { bucket: { name: [{ Ref: logicalId(server.jwks.bucket) }] }, object: { key: [jwksObjectKey] } },
    });
    expect(rule.Properties.Targets).toEqual([
      expect.objectContaining({ Arn: { 'Fn::GetAtt': [logicalId(server.keyRotation.function), 'Arn'] } }),
    ]);
    // No bucket-notifications custom resource (and its function) for it.
    expect(rules(plain).length).toBeGreaterThan(0);
    expect(Object.keys(resources(plain.template, 'Custom::S3BucketNotifications'))).toEqual([]);
  });
});

describe('behaviour CUSTODY-2: CUSTOMER_MANAGED_KEY encrypts the tables, the secrets and every log group with one customer-managed key', () => {
  let cmk: Synthesized;
  beforeAll(() => {
    cmk = synthesize({ CUSTOMER_MANAGED_KEY: 'true' });
  });
  const keyRef = (s: Synthesized) => ({ 'Fn::GetAtt': [logicalId(s.stack.server.encryptionKey!), 'Arn'] });

  test('off by default: AWS managed keys, no KMS key in the stack', () => {
    expect(plain.stack.server.encryptionKey).toBeUndefined();
    expect(Object.keys(resources(plain.template, 'AWS::KMS::Key'))).toEqual([]);
    for (const secret of Object.values(resources(plain.template, 'AWS::SecretsManager::Secret'))) {
      expect(secret.Properties.KmsKeyId).toBeUndefined();
    }
    for (const group of Object.values(resources(plain.template, 'AWS::Logs::LogGroup'))) expect(group.Properties.KmsKeyId).toBeUndefined();
  });

  test('on: one retained key with rotation, used by every table, secret and log group', () => {
    const keys = resources(cmk.template, 'AWS::KMS::Key');
    expect(Object.keys(keys)).toEqual([logicalId(cmk.stack.server.encryptionKey!)]);
    const key = Object.values(keys)[0]!;
    expect(key.Properties.EnableKeyRotation).toBe(true);
    expect(key.DeletionPolicy).toBe('Retain');

    const tables = Object.values(resources(cmk.template, 'AWS::DynamoDB::GlobalTable'));
    expect(tables).toHaveLength(Object.keys(cmk.stack.server.tables).length);
    for (const table of tables) {
      expect(table.Properties.SSESpecification).toMatchObject({ SSEEnabled: true, SSEType: 'KMS' });
      for (const replica of table.Properties.Replicas) expect(replica.SSESpecification.KMSMasterKeyId).toEqual(keyRef(cmk));
    }
    const secrets = Object.values(resources(cmk.template, 'AWS::SecretsManager::Secret'));
    expect(secrets).toHaveLength(3);
    for (const secret of secrets) expect(secret.Properties.KmsKeyId).toEqual(keyRef(cmk));
    const groups = Object.values(resources(cmk.template, 'AWS::Logs::LogGroup'));
    expect(groups.length).toBeGreaterThan(Object.keys(cmk.stack.server.functions).length);
    for (const group of groups) expect(group.Properties.KmsKeyId).toEqual(keyRef(cmk));
  });

  test('on: CloudWatch Logs of this account and region may use the key, and the functions may decrypt what they read', () => {
    const statements: Statement[] = Object.values(resources(cmk.template, 'AWS::KMS::Key'))[0]!.Properties.KeyPolicy.Statement;
    const logsStatement = statements.find((st) => st.Sid === 'CloudWatchLogsOfThisAccount')!;
    expect(JSON.stringify(logsStatement.Principal)).toContain('logs.');
    expect(JSON.stringify(logsStatement.Condition)).toContain('kms:EncryptionContext:aws:logs:arn');

    const signer = routes.find((row) => row.signs)!;
    const fn = cmk.stack.server.functions[signer.name]!;
    const role = resources(cmk.template, 'AWS::IAM::Policy');
    const grants = Object.values(role)
      .filter((policy) => policy.Properties.Roles.some((r: any) => r.Ref === logicalId(fn.role as never)))
      .flatMap((policy) => policy.Properties.PolicyDocument.Statement as Statement[]);
    expect(
      grants.some((st) => [st.Action].flat().includes('kms:Decrypt') && JSON.stringify(st.Resource) === JSON.stringify(keyRef(cmk))),
    ).toBe(true);
  });
});
