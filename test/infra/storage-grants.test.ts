/**
 * Item-level DynamoDB grants as synthesized (behaviour IAM-1, IAM-2, IAM-4): every function's policy
 * is read from the template and compared with its row's declaration (lambdas/routes.ts `storage`).
 * That the declarations cover what the code sends is checked by the handler tests themselves
 * (behaviour IAM-3, test/support/record-storage-access.ts).
 */
import { keyFamilies, type KeyFamilyName, matchesLeadingKey } from '../../lambdas/adapters/dynamodb/keys/families';
import { tableNames } from '../../lambdas/adapters/dynamodb/table-definitions';
import {
  adminSeed,
  jobs,
  keyRotationRecord,
  type Route,
  routes,
  type StorageAccess,
  statisticsRollup,
  verbsOf,
} from '../../lambdas/routes';
import { storageActions } from '../../lib/storage-grants';
import { actionsOf, logicalId, resources, roleStatements, synthesize, type Synthesized } from './synthesize';

let synthesized: Synthesized;
beforeAll(() => {
  synthesized = synthesize();
});

const tableLogicalId = (name: (typeof tableNames)[number]) => logicalId(synthesized.stack.server.tables[name]);

/** The table (and index) a statement's resource names: `main`, `main/gsi1`, ... */
function resourceOf(statement: any): string {
  const resourcesNamed = [statement.Resource].flat();
  expect(resourcesNamed).toHaveLength(1);
  const text = JSON.stringify(resourcesNamed[0]);
  const table = tableNames.find((name) => text.includes(`"${tableLogicalId(name)}"`));
  if (!table) throw new Error(`a DynamoDB statement on no table of the stack: ${text}`);
  const index = /\/index\/([A-Za-z0-9_-]+)/.exec(text)?.[1];
  return index ? `${table}/${index}` : table;
}

/** What a role may do, as `<table>[/<index>] <action> <leading-key pattern>` lines. */
function grantedLines(functionLogicalId: string): string[] {
  return roleStatements(synthesized.template, functionLogicalId)
    .filter((statement) => actionsOf(statement).some((action) => action.startsWith('dynamodb:')))
    .flatMap((statement) => {
      expect(statement.Effect).toBe('Allow');
      const patterns = statement.Condition?.['ForAllValues:StringLike']?.['dynamodb:LeadingKeys'];
      if (!patterns) throw new Error(`a DynamoDB statement without a dynamodb:LeadingKeys condition: ${JSON.stringify(statement)}`);
      const resource = resourceOf(statement);
      return actionsOf(statement).flatMap((action) => [patterns].flat().map((pattern: string) => `${resource} ${action} ${pattern}`));
    })
    .sort();
}

/** The same lines, from a declaration. */
function declaredLines(access: StorageAccess): string[] {
  return (Object.entries(access) as [KeyFamilyName, StorageAccess[KeyFamilyName]][])
    .flatMap(([family, verbs]) => {
      const where = keyFamilies[family];
      const resource = 'index' in where ? `${where.table}/${where.index}` : where.table;
      return verbsOf(verbs).flatMap((verb) => where.leadingKeys.map((pattern) => `${resource} ${storageActions[verb]} ${pattern}`));
    })
    .filter((line, i, all) => all.indexOf(line) === i)
    .sort();
}

const routeFunctionId = (route: Route) => logicalId(synthesized.stack.server.functions[route.name]!);
const writeActions = [
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
  'dynamodb:ConditionCheckItem',
];

describe('behaviour IAM-1, IAM-2: each function may do exactly what its row declares, on the key families it declares', () => {
  test.each(routes.map((route) => [route.name, route] as const))('%s', (_name, route) => {
    expect(grantedLines(routeFunctionId(route))).toEqual(declaredLines(route.storage));
  });

  test.each(jobs.map((job) => [job.name, job] as const))('job %s', (_name, job) => {
    expect(grantedLines(logicalId(synthesized.stack.server.jobFunctions[job.name]!))).toEqual(declaredLines(job.storage));
  });

  test('the first-admin seed (a custom resource): PutItem on the families it seeds, as lambdas/routes.ts adminSeed declares', () => {
    const handler = synthesized.stack.server.adminBootstrap.node.findChild('Handler');
    expect(grantedLines(logicalId(handler))).toEqual(declaredLines(adminSeed.storage));
  });

  test('the signing-key rotation job: PutItem on the key times item only, as lambdas/routes.ts keyRotationRecord declares (behaviour DASH-7)', () => {
    const lines = grantedLines(logicalId(synthesized.stack.server.keyRotation.function));
    expect(lines).toEqual(declaredLines(keyRotationRecord.storage));
    expect(lines).toEqual(['main dynamodb:PutItem SIGNINGKEY']);
  });

  test('no function of the stack may Scan, use a wildcard action, or touch a table without a leading-key condition', () => {
    for (const [id, policy] of Object.entries(resources(synthesized.template, 'AWS::IAM::Policy'))) {
      for (const statement of policy.Properties.PolicyDocument.Statement) {
        const dynamo = actionsOf(statement).filter((action) => action.startsWith('dynamodb:'));
        expect([id, dynamo.filter((action) => action === 'dynamodb:Scan' || action.includes('*'))]).toEqual([id, []]);
        const dataActions = dynamo.filter((action) => Object.values(storageActions).includes(action));
        if (dataActions.length > 0) {
          expect([id, statement.Condition?.['ForAllValues:StringLike']?.['dynamodb:LeadingKeys'] !== undefined]).toEqual([id, true]);
        }
      }
    }
  });

  test('a read-only route gets read-only grants: every GET row but the two that start a flow (authorization, passkey ceremony)', () => {
    const startsAFlow = ['Authorize', 'PasskeysPage'];
    const readOnly = routes.filter((route) => route.method === 'GET' && !startsAFlow.includes(route.name));
    // The eight read-only admin routes the route table's old admin default granted write on every table.
    expect(readOnly.filter((route) => route.auth === 'admin').length).toBeGreaterThanOrEqual(8);
    // Behaviour BEARER-5: where a DPoP proof is taken, its jti is used up, the one write these rows make.
    const takesDpop = (route: Route) => route.auth === 'admin' || ['UserInfo', 'ValidateToken'].includes(route.name);
    const usedIdentifier = (line: string) => keyFamilies.usedIdentifier.leadingKeys.some((pattern) => line.endsWith(` ${pattern}`));
    // Behaviour DASH-13: the dashboard page a secret is shown on claims its single-use record, the one write of its pages.
    const claimsShownOnce = (route: Route, line: string) =>
      route.name === 'DashboardPage' && keyFamilies.shownOnce.leadingKeys.some((pattern) => line.endsWith(`UpdateItem ${pattern}`));
    for (const route of readOnly) {
      const lines = grantedLines(routeFunctionId(route));
      const writes = lines.filter((line) => writeActions.includes(line.split(' ')[1]!));
      expect([route.name, writes.filter((line) => !(takesDpop(route) && usedIdentifier(line)) && !claimsShownOnce(route, line))]).toEqual([
        route.name,
        [],
      ]);
    }
  });

  test('the routes without a user (registration, discovery, the public pages) cannot write a user, an email or an API key', () => {
    const protectedFamilies: KeyFamilyName[] = [
      'user',
      'email',
      'apiKey',
      'environment',
      'scope',
      'passkey',
      'siteSettings',
      'trustedIssuer',
    ];
    for (const name of [
      'Register',
      'OAuthServerMetadata',
      'OpenIdConfiguration',
      'SignInPage',
      'ForgotPasswordPage',
      'PasskeySignInOptions',
    ]) {
      const lines = grantedLines(routeFunctionId(routes.find((route) => route.name === name)!));
      const writes = lines.filter((line) => writeActions.includes(line.split(' ')[1]!));
      for (const family of protectedFamilies) {
        for (const pattern of keyFamilies[family].leadingKeys)
          expect([name, writes.filter((line) => line.endsWith(` ${pattern}`))]).toEqual([name, []]);
      }
    }
  });

  test('every role stays well under IAM’s 10,240-character limit on its inline policies', () => {
    const byRole = new Map<string, number>();
    for (const policy of Object.values(resources(synthesized.template, 'AWS::IAM::Policy'))) {
      for (const role of policy.Properties.Roles) {
        const size = JSON.stringify(policy.Properties.PolicyDocument).replace(/\s/g, '').length;
        byRole.set(JSON.stringify(role), (byRole.get(JSON.stringify(role)) ?? 0) + size);
      }
    }
    // Table ARNs resolve to about 90 characters where the template holds a ~60-character reference.
    expect(Math.max(...byRole.values())).toBeLessThan(7_000);
  });
});

describe('behaviour IAM-4: the audit log is appended to, never changed or deleted by a function', () => {
  test('no statement of any role allows UpdateItem, DeleteItem or BatchWriteItem on audit entries; PutItem on them only to rows that declare auditEntry', () => {
    const auditKey = 'AUDIT#tgc_any';
    for (const [id, policy] of Object.entries(resources(synthesized.template, 'AWS::IAM::Policy'))) {
      for (const statement of policy.Properties.PolicyDocument.Statement) {
        const dynamo = actionsOf(statement).filter((action) => action.startsWith('dynamodb:'));
        if (dynamo.length === 0 || !JSON.stringify(statement.Resource).includes(`"${tableLogicalId('activity')}"`)) continue;
        // Without a leading-key condition a statement reaches every item, audit entries included.
        const patterns: string[] = [statement.Condition?.['ForAllValues:StringLike']?.['dynamodb:LeadingKeys'] ?? '*'].flat();
        if (!patterns.some((pattern) => matchesLeadingKey(pattern, auditKey))) continue;
        const changes = dynamo.filter(
          (action) =>
            ['dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'].includes(action) ||
            action.includes('*') ||
            action.startsWith('dynamodb:PartiQL'),
        );
        expect([id, changes]).toEqual([id, []]);
      }
    }
    for (const route of routes) {
      const puts = grantedLines(routeFunctionId(route)).filter((line) => line === 'activity dynamodb:PutItem AUDIT#*');
      expect([route.name, puts.length > 0]).toEqual([route.name, verbsOf(route.storage.auditEntry).includes('put')]);
    }
  });
});

describe('key families', () => {
  const examples: Record<KeyFamilyName, string> = {
    client: 'COPY3#tgc_x',
    user: 'USER#usr_x',
    email: 'EMAIL#a@example.org',
    environment: 'ENV#env_x',
    scope: 'SCOPE#openid',
    scopeCatalogVersion: 'SCOPECATALOG',
    apiKey: 'APIKEY#0123456789abcdef',
    passkey: 'PASSKEY#abc',
    siteSettings: 'SITE',
    signingKeyTimes: 'SIGNINGKEY',
    trustedIssuer: 'TRUSTWORKLOAD#abc',
    trustedIssuerList: 'TRUSTEDISSUERS',
    userList: 'USERS',
    environmentList: 'ENVS',
    scopeList: 'SCOPES',
    clientList: 'CLIENTS#dynamic',
    apiKeysOfClient: 'CLIENT#tgc_x#APIKEYS',
    usersOfEnvironment: 'ENV#env_x#USERS',
    session: 'SESSION#d',
    authorizationRequest: 'AUTHREQ#d',
    pushedAuthorizationRequest: 'PAR#d',
    shownOnce: 'SHOWNONCE#d',
    authorizationCode: 'CODE#d',
    refreshToken: 'RT#d',
    tokenFamily: 'FAMILY#f',
    tokenRecord: 'JTI#j',
    signInChallenge: 'MFA#d',
    verificationCode: 'EMAILVERIFY#usr_x',
    resetLink: 'PWRESET#d',
    resetLinkOfUser: 'PWRESETUSER#usr_x',
    recoveryProof: 'PWRECOVER#d',
    passkeyCeremony: 'WEBAUTHN#d',
    sendRate: 'SENDRATE#OTP#usr_x',
    passwordFailures: 'PWFAIL#d#1',
    device: 'DEVICE#d',
    registrationCounter: 'DCRRATE#2026-01-01#203.0.113.7',
    usedIdentifier: 'USED#dpop-proof#abc',
    sessionsOfUser: 'USER#usr_x#SESSIONS',
    refreshTokensOfUser: 'USER#usr_x#REFRESH',
    familiesOfUser: 'USER#usr_x#FAMILIES',
    registrationCountersOfDay: 'DCRRATE#2026-01-01',
    tokenActivity: 'ACTIVITY#tgc_x#03',
    auditEntry: 'AUDIT#USER#usr_x',
    auditDay: 'AUDITDAY#2026-01-01',
    tokenStats: 'STATS#CLIENT#tgc_x',
  };

  test('behaviour IAM-2: in each table and index, a key of one family matches no other family’s patterns', () => {
    for (const [family, key] of Object.entries(examples) as [KeyFamilyName, string][]) {
      const where = keyFamilies[family];
      const matching = (Object.entries(keyFamilies) as [KeyFamilyName, (typeof keyFamilies)[KeyFamilyName]][])
        .filter(
          ([, other]) => other.table === where.table && ('index' in other ? other.index : '') === ('index' in where ? where.index : ''),
        )
        .filter(([, other]) => other.leadingKeys.some((pattern) => matchesLeadingKey(pattern, key)))
        .map(([name]) => name);
      expect([family, matching]).toEqual([family, [family]]);
    }
  });
});

describe('behaviour IAM-4: the audit log’s append-only copy', () => {
  test('the activity table streams new and old images; the exporter is invoked for AUDIT# records only, from the start of the stream, failures to a queue', () => {
    const activity = resources(synthesized.template, 'AWS::DynamoDB::GlobalTable')[tableLogicalId('activity')]!;
    expect(activity.Properties.StreamSpecification).toEqual({ StreamViewType: 'NEW_AND_OLD_IMAGES' });
    // The main table's stream feeds the statistics rollup (behaviour LOG-11, below); the ephemeral table has none.
    for (const name of ['ephemeral'] as const) {
      expect(
        resources(synthesized.template, 'AWS::DynamoDB::GlobalTable')[tableLogicalId(name)]!.Properties.StreamSpecification,
      ).toBeUndefined();
    }
    const exporterId = logicalId(synthesized.stack.server.auditArchive.function);
    const [mapping] = Object.values(resources(synthesized.template, 'AWS::Lambda::EventSourceMapping')).filter(
      (m) => m.Properties.FunctionName.Ref === exporterId,
    );
    expect(mapping!.Properties).toMatchObject({
      StartingPosition: 'TRIM_HORIZON',
      BisectBatchOnFunctionError: true,
      FilterCriteria: { Filters: [{ Pattern: JSON.stringify({ dynamodb: { Keys: { pk: { S: [{ prefix: 'AUDIT#' }] } } } }) }] },
      DestinationConfig: { OnFailure: { Destination: expect.anything() } },
    });
    expect(JSON.stringify(mapping!.Properties.EventSourceArn)).toContain(tableLogicalId('activity'));
  });

  test('the bucket locks every object 365 days in COMPLIANCE mode by default, blocks public access and is retained', () => {
    const bucket = resources(synthesized.template, 'AWS::S3::Bucket')[logicalId(synthesized.stack.server.auditArchive.bucket)]!;
    expect(bucket.Properties.ObjectLockEnabled).toBe(true);
    expect(bucket.Properties.ObjectLockConfiguration).toEqual({
      ObjectLockEnabled: 'Enabled',
      Rule: { DefaultRetention: { Mode: 'COMPLIANCE', Days: 365 } },
    });
    expect(bucket.Properties.VersioningConfiguration).toEqual({ Status: 'Enabled' });
    expect(bucket.DeletionPolicy).toBe('Retain');
  });

  test('the exporter may only put objects under audit/ and read the stream: no delete, no retention change, no table access', () => {
    const statements = roleStatements(synthesized.template, logicalId(synthesized.stack.server.auditArchive.function));
    const actions = statements.flatMap(actionsOf);
    expect(actions.filter((action) => action.startsWith('s3:'))).toEqual(['s3:PutObject']);
    const put = statements.find((statement) => actionsOf(statement).includes('s3:PutObject'));
    expect(JSON.stringify(put.Resource)).toMatch(/\/audit\/\*"\]\]\}$/);
    expect(actions.filter((action) => action.startsWith('dynamodb:')).sort()).toEqual([
      'dynamodb:DescribeStream',
      'dynamodb:GetRecords',
      'dynamodb:GetShardIterator',
      'dynamodb:ListStreams',
    ]);
  });

  test('auditArchive props: GOVERNANCE mode and a longer retention; a retention shorter than the table’s is refused', () => {
    const { AuditArchive } = require('../../lib/audit-archive') as typeof import('../../lib/audit-archive');
    const { Stack } = require('aws-cdk-lib') as typeof import('aws-cdk-lib');
    const { Template } = require('aws-cdk-lib/assertions') as typeof import('aws-cdk-lib/assertions');
    const { TableV2, AttributeType, StreamViewType } = require('aws-cdk-lib/aws-dynamodb') as typeof import('aws-cdk-lib/aws-dynamodb');
    const stack = new Stack();
    const table = new TableV2(stack, 'T', {
      partitionKey: { name: 'pk', type: AttributeType.STRING },
      dynamoStream: StreamViewType.NEW_AND_OLD_IMAGES,
    });
    new AuditArchive(stack, 'A', { table, logRetention: 30, mode: 'GOVERNANCE', retentionDays: 2555 });
    Template.fromStack(stack).hasResourceProperties('AWS::S3::Bucket', {
      ObjectLockConfiguration: { ObjectLockEnabled: 'Enabled', Rule: { DefaultRetention: { Mode: 'GOVERNANCE', Days: 2555 } } },
    });
    expect(() => new AuditArchive(stack, 'B', { table, logRetention: 30, retentionDays: 30 })).toThrow(/at least 365/);
  });
});

describe('behaviour IAM-5: the other grants name only the calls made', () => {
  test('no role of the stack may UpdateSecret, SendRawEmail, DeleteObjectVersion or change an object’s retention or legal hold', () => {
    const forbidden =
      /^(secretsmanager:UpdateSecret|ses:SendRawEmail|s3:DeleteObjectVersion|s3:DeleteObject\*|s3:PutObjectRetention|s3:PutObjectLegalHold|s3:Abort\*|s3:GetObject\*|s3:List\*|s3:GetBucket\*)$/;
    for (const [id, policy] of Object.entries(resources(synthesized.template, 'AWS::IAM::Policy'))) {
      const actions = policy.Properties.PolicyDocument.Statement.flatMap(actionsOf);
      expect([id, actions.filter((action: string) => forbidden.test(action))]).toEqual([id, []]);
    }
  });

  test('mail rows may ses:SendEmail on the identity and the configuration set, nothing else of SES', () => {
    for (const route of routes.filter((row) => row.sendsMail)) {
      const ses = roleStatements(synthesized.template, routeFunctionId(route)).filter((statement) =>
        actionsOf(statement).some((action) => action.startsWith('ses:')),
      );
      expect(ses.flatMap(actionsOf)).toEqual(['ses:SendEmail']);
      expect(JSON.stringify(ses[0].Resource)).toMatch(/identity\//);
      expect(JSON.stringify(ses[0].Resource)).toMatch(/configuration-set\//);
    }
  });

  test('the key rotation job: PutSecretValue on the key set, GetObject and PutObject on jwks.json only', () => {
    const statements = roleStatements(synthesized.template, logicalId(synthesized.stack.server.keyRotation.function));
    const actions = statements.flatMap(actionsOf);
    expect(actions.filter((action) => action.startsWith('s3:')).sort()).toEqual(['s3:GetObject', 's3:PutObject']);
    expect(actions.filter((action) => action.startsWith('secretsmanager:')).sort()).toEqual([
      'secretsmanager:DescribeSecret',
      'secretsmanager:GetSecretValue',
      'secretsmanager:PutSecretValue',
    ]);
    const s3 = statements.find((statement) => actionsOf(statement).includes('s3:PutObject'));
    expect(JSON.stringify(s3.Resource)).toMatch(/\/jwks\.json"\]\]\}$/);
  });
});

describe('behaviour LOG-10, LOG-11, LOG-12: the statistics rollup', () => {
  const rollupId = () => logicalId(synthesized.stack.server.statisticsRollup.function);
  const mappings = () =>
    Object.values(resources(synthesized.template, 'AWS::Lambda::EventSourceMapping')).filter(
      (m) => m.Properties.FunctionName.Ref === rollupId(),
    );
  const patterns = (mapping: any) =>
    mapping.Properties.FilterCriteria.Filters.map((filter: { Pattern: string }) => JSON.parse(filter.Pattern));

  test('LOG-11: the main table streams new and old images too', () => {
    const main = resources(synthesized.template, 'AWS::DynamoDB::GlobalTable')[tableLogicalId('main')]!;
    expect(main.Properties.StreamSpecification).toEqual({ StreamViewType: 'NEW_AND_OLD_IMAGES' });
  });

  test('LOG-10, LOG-11, LOG-13: one mapping per table, from the latest records, filtered to the counted records (no audit entry, no client copy), a minute’s batching, retried whole, failures to the async-failures queue', () => {
    const found = mappings();
    expect(found).toHaveLength(2);
    const byTable = (name: 'main' | 'activity') =>
      found.find((m) => JSON.stringify(m.Properties.EventSourceArn).includes(tableLogicalId(name)))!;
    // A token row's TTL removal counts nothing, so it invokes nothing.
    expect(patterns(byTable('activity'))).toEqual([
      { eventName: ['INSERT', 'MODIFY'], dynamodb: { Keys: { pk: { S: [{ prefix: 'ACTIVITY#' }] } } } },
    ]);
    expect(patterns(byTable('main'))).toEqual([
      { dynamodb: { Keys: { pk: { S: [{ prefix: 'CLIENT#' }] }, sk: { S: ['CLIENT'] } } } },
      { dynamodb: { Keys: { pk: { S: [{ prefix: 'USER#' }] }, sk: { S: ['USER'] } } } },
      { dynamodb: { Keys: { pk: { S: [{ prefix: 'APIKEY#' }] }, sk: { S: ['APIKEY'] } } } },
    ]);
    for (const mapping of found) {
      expect(mapping.Properties).toMatchObject({
        // Behaviour LOG-13: from the latest records, so a replaced mapping never counts the streams' last 24 hours again.
        StartingPosition: 'LATEST',
        BatchSize: 1000,
        MaximumBatchingWindowInSeconds: 60,
        MaximumRetryAttempts: 5,
        BisectBatchOnFunctionError: false,
        DestinationConfig: { OnFailure: { Destination: expect.anything() } },
      });
    }
  });

  test('LOG-12: it may only update, put and query STATS# items and query the client, user and key lists, besides reading the two streams', () => {
    expect(grantedLinesOf(rollupId())).toEqual(declaredLines(statisticsRollup.storage));
    expect(
      new Set(
        grantedLinesOf(rollupId())
          .filter((line) => line.startsWith('activity '))
          .map((line) => line.split(' ').pop()),
      ),
    ).toEqual(new Set(['STATS#*']));
    const streamActions = roleStatements(synthesized.template, rollupId())
      .filter((statement) => !statement.Condition)
      .flatMap(actionsOf)
      .filter((action) => action.startsWith('dynamodb:'));
    expect([...new Set(streamActions)].sort()).toEqual([
      'dynamodb:DescribeStream',
      'dynamodb:GetRecords',
      'dynamodb:GetShardIterator',
      'dynamodb:ListStreams',
    ]);
  });

  /** The DynamoDB lines of a role's item-level statements (those with a leading-key condition). */
  function grantedLinesOf(functionLogicalId: string): string[] {
    return roleStatements(synthesized.template, functionLogicalId)
      .filter((statement) => statement.Condition && actionsOf(statement).some((action) => action.startsWith('dynamodb:')))
      .flatMap((statement) => {
        const patternsOf = statement.Condition['ForAllValues:StringLike']['dynamodb:LeadingKeys'];
        const resource = resourceOf(statement);
        return actionsOf(statement).flatMap((action) => [patternsOf].flat().map((pattern: string) => `${resource} ${action} ${pattern}`));
      })
      .sort();
  }
});
