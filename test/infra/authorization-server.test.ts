import { Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { tableDefinitions, tableNames } from '../../lambdas/adapters/dynamodb/table-definitions';
import { jobs, routes, type Route } from '../../lambdas/routes';
import { routeFamilies, routeFamily } from '../../lib/route-families';
import { tablesOf } from '../../lib/storage-grants';
import { tableId } from '../../lib/tables';
import {
  actionsOf,
  logicalId,
  methodPath,
  nestedStacksOf,
  resourcePaths,
  resources,
  roleStatements,
  synthesize,
  type Synthesized,
} from './synthesize';

let synthesized: Synthesized;
beforeAll(() => {
  synthesized = synthesize();
});

const functionId = (routeName: string) => logicalId(synthesized.stack.server.functions[routeName]!);
const tableLogicalId = (name: keyof typeof tableDefinitions) => logicalId(synthesized.stack.server.tables[name]);
const dynamoStatements = (fnId: string) =>
  roleStatements(synthesized.template, fnId).filter((s) => actionsOf(s).some((a) => a.startsWith('dynamodb:')));

describe('route table → functions and methods', () => {
  test('one function per route row and per scheduled job, plus the fallback, key rotation, the audit exporter, the statistics rollup, and two per custom resource (signing key, admin bootstrap)', () => {
    synthesized.template.resourceCountIs('AWS::Lambda::Function', routes.length + jobs.length + 1 + 1 + 1 + 1 + 2 * 2);
    for (const route of routes) {
      synthesized.template.hasResourceProperties('AWS::Lambda::Function', { Description: `${route.method} ${route.path}` });
    }
  });

  test('one API Gateway method per row, with the row’s HTTP method and path, integrated with the row’s function', () => {
    const methods = Object.values(resources(synthesized.template, 'AWS::ApiGateway::Method'));
    for (const route of routes) {
      const matching = methods.filter(
        (m) => m.Properties.HttpMethod === route.method && methodPath(synthesized.template, m) === route.path,
      );
      expect(matching).toHaveLength(1);
      expect(matching[0]!.Properties.Integration.Type).toBe('AWS_PROXY');
      expect(JSON.stringify(matching[0]!.Properties.Integration.Uri)).toContain(functionId(route.name));
    }
  });

  test('behaviour REG-7: each scheduled job runs daily from an EventBridge rule, with only its own table grants', () => {
    for (const job of jobs) {
      const fnId = logicalId(synthesized.stack.server.jobFunctions[job.name]!);
      synthesized.template.hasResourceProperties('AWS::Events::Rule', {
        ScheduleExpression: `cron(${job.dailyAt.minute} ${job.dailyAt.hour} * * ? *)`,
        Targets: Match.arrayWith([Match.objectLike({ Arn: { 'Fn::GetAtt': [fnId, 'Arn'] } })]),
      });
      const tablesGranted = dynamoStatements(fnId).flatMap((s) => JSON.stringify(s.Resource));
      for (const name of tableNames) {
        expect(tablesGranted.some((r) => r.includes(tableLogicalId(name)))).toBe(tablesOf(job.storage).includes(name));
      }
    }
  });

  test('ANY on the root, on /{proxy+} and on every routed path goes to the one fallback function', () => {
    const fallbackId = logicalId(synthesized.stack.server.fallbackFunction);
    const anyPaths = Object.values(resources(synthesized.template, 'AWS::ApiGateway::Method'))
      .filter((m) => m.Properties.HttpMethod === 'ANY')
      .map((m) => {
        expect(JSON.stringify(m.Properties.Integration.Uri)).toContain(fallbackId);
        return methodPath(synthesized.template, m);
      });
    expect(new Set(anyPaths)).toEqual(new Set(['/', '/{proxy+}', ...routes.map((r) => r.path)]));
  });

  test('every service function runs Node.js 22 or newer on ARM64', () => {
    for (const id of [...routes.map((r) => functionId(r.name)), logicalId(synthesized.stack.server.fallbackFunction)]) {
      const fn = resources(synthesized.template, 'AWS::Lambda::Function')[id]!;
      expect(fn.Properties.Architectures).toEqual(['arm64']);
      const major = Number(/^nodejs(\d+)\.x$/.exec(fn.Properties.Runtime)?.[1]);
      expect(major).toBeGreaterThanOrEqual(22);
    }
  });

  test('every log group (functions, API access and execution, WAF) has a retention', () => {
    synthesized.template.allResourcesProperties('AWS::Logs::LogGroup', { RetentionInDays: 30 });
    synthesized.template.allResourcesProperties('AWS::Lambda::Function', {
      LoggingConfig: Match.objectLike({ LogGroup: Match.anyValue() }),
    });
  });
});

test('the template has no resource dependency cycle (BASE_URL is built without the stage)', () => {
  // Template's own check walks Ref, GetAtt, Sub and DependsOn and throws on a cycle.
  for (const stack of [synthesized.stack, ...nestedStacksOf(synthesized.stack)]) {
    expect(() => Template.fromStack(stack, { skipCyclicalDependenciesCheck: false })).not.toThrow();
  }
  // And across them: the flattened view resolves nested references into one graph.
  expect(() => Template.fromJSON(synthesized.template.toJSON(), { skipCyclicalDependenciesCheck: false })).not.toThrow();
});

describe('least privilege', () => {
  test('a row that names no tables gets no DynamoDB permission (Health)', () => {
    expect(dynamoStatements(functionId('Health'))).toEqual([]);
  });

  test('discovery gets read-only access to the main table and nothing else', () => {
    const writes = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'];
    for (const name of ['OAuthServerMetadata', 'OpenIdConfiguration']) {
      const statements = dynamoStatements(functionId(name));
      expect(statements.length).toBeGreaterThan(0);
      const text = JSON.stringify(statements);
      expect(text).toContain(tableLogicalId('main'));
      expect(text).not.toContain(tableLogicalId('ephemeral'));
      expect(text).not.toContain(tableLogicalId('activity'));
      expect(statements.flatMap(actionsOf).filter((a) => writes.includes(a))).toEqual([]);
    }
  });

  test('the signing secret only to rows that sign (verifiers use the public JWKS), the device-cookie key only to rows that say deviceCookies (behaviour PWFAIL-6), SES only to rows that send mail', () => {
    const signingKeyId = logicalId(synthesized.stack.server.signingKeySecret);
    const deviceKeyId = logicalId(synthesized.stack.server.deviceCookieKeySecret);
    for (const route of routes) {
      const statements = roleStatements(synthesized.template, functionId(route.name));
      const secrets = JSON.stringify(
        statements.filter((s) => actionsOf(s).includes('secretsmanager:GetSecretValue')).map((s) => s.Resource),
      );
      expect([route.name, 'signing key', secrets.includes(signingKeyId)]).toEqual([route.name, 'signing key', route.signs === true]);
      expect([route.name, 'device key', secrets.includes(deviceKeyId)]).toEqual([route.name, 'device key', route.deviceCookies === true]);
      expect(statements.flatMap(actionsOf).includes('ses:SendEmail')).toBe(route.sendsMail === true);
    }
    expect(routes.filter((route) => route.deviceCookies).map((route) => route.name)).toEqual([
      'SignIn',
      'AuthorizeSignIn',
      'SignInCode',
      'PasskeySignIn',
    ]);
  });

  test('behaviour PWFAIL-6: the device-cookie key is generated by CloudFormation, so no key is in the template', () => {
    const secret = resources(synthesized.template, 'AWS::SecretsManager::Secret')[
      logicalId(synthesized.stack.server.deviceCookieKeySecret)
    ]!;
    expect(secret.Properties.GenerateSecretString).toEqual({
      SecretStringTemplate: '{}',
      GenerateStringKey: 'current',
      PasswordLength: 64,
      ExcludePunctuation: true,
      IncludeSpace: false,
    });
    expect(secret.Properties.SecretString).toBeUndefined();
  });

  test('the fallback function gets no table, secret or mail permission', () => {
    const fallbackId = logicalId(synthesized.stack.server.fallbackFunction);
    const actions = roleStatements(synthesized.template, fallbackId).flatMap(actionsOf);
    expect(actions.filter((a) => /^(dynamodb|secretsmanager|ses):/.test(a))).toEqual([]);
  });

  test('the signing-key custom resource may write only jwks.json in the JWKS bucket', () => {
    const handler = synthesized.stack.server.node.findChild('SigningKey').node.findChild('Handler');
    const statements = roleStatements(synthesized.template, logicalId(handler));
    const puts = statements.filter((s) => actionsOf(s).includes('s3:PutObject'));
    expect(puts).toHaveLength(1);
    expect(JSON.stringify(puts[0].Resource)).toMatch(/\/jwks\.json"\]\]\}$/);
    expect(statements.flatMap(actionsOf).filter((a) => a.startsWith('dynamodb:'))).toEqual([]);
  });

  test('functions learn table names, the signing secret ARN only when their row signs, the device-cookie key ARN only when it says deviceCookies', () => {
    for (const route of routes) {
      const variables = resources(synthesized.template, 'AWS::Lambda::Function')[functionId(route.name)]!.Properties.Environment.Variables;
      for (const name of tableNames) {
        expect(variables[tableDefinitions[name].envVar]).toEqual({ Ref: tableLogicalId(name) });
      }
      expect('SIGNING_KEY_SECRET_ARN' in variables).toBe(route.signs === true);
      expect('DEVICE_COOKIE_KEY_SECRET_ARN' in variables).toBe(route.deviceCookies === true);
    }
  });
});

describe('storage', () => {
  test('each table: on-demand, PITR, deletion protection, TTL, retained on stack deletion', () => {
    const tables = resources(synthesized.template, 'AWS::DynamoDB::GlobalTable');
    expect(Object.keys(tables)).toHaveLength(tableNames.length);
    for (const name of tableNames) {
      const table = tables[tableLogicalId(name)]!;
      const definition = tableDefinitions[name];
      expect(table.DeletionPolicy).toBe('Retain');
      expect(table.UpdateReplacePolicy).toBe('Retain');
      expect(table.Properties.BillingMode).toBe('PAY_PER_REQUEST');
      expect(table.Properties.TimeToLiveSpecification).toEqual({ AttributeName: definition.ttlAttribute, Enabled: true });
      expect(table.Properties.SSESpecification).toEqual({ SSEEnabled: true, SSEType: 'KMS' });
      expect(table.Properties.Replicas).toHaveLength(1);
      expect(table.Properties.Replicas[0].PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
      expect(table.Properties.Replicas[0].DeletionProtectionEnabled).toBe(true);
      expect((table.Properties.GlobalSecondaryIndexes ?? []).map((i: any) => [i.IndexName, i.Projection.ProjectionType])).toEqual(
        definition.globalIndexes.map((i) => [i.indexName, 'ALL']),
      );
    }
  });

  test('the stack outputs the issuer, the JWKS URL and every table name', () => {
    synthesized.template.hasOutput('IssuerUrl', {});
    synthesized.template.hasOutput('JwksUrl', { Value: { 'Fn::Join': ['', Match.arrayWith([Match.stringLikeRegexp('/jwks\\.json$')])] } });
    for (const name of tableNames) {
      synthesized.template.hasOutput(`${tableId(name)}TableName`, { Value: { Ref: tableLogicalId(name) } });
    }
  });
});

describe('the site logo (behaviour SITE-3, SITE-4)', () => {
  const logoRows = routes.filter((r) => r.writesSiteAssets);

  test('the logo rows may put and delete objects under branding/ of the JWKS bucket only; no other row touches S3', () => {
    expect(logoRows.map((r) => r.name).sort()).toEqual(['AdminDeleteSiteLogo', 'AdminPutSiteLogo', 'DashboardLogoUpload']);
    for (const route of routes) {
      const s3 = roleStatements(synthesized.template, functionId(route.name)).filter((st) =>
        actionsOf(st).some((a) => a.startsWith('s3:')),
      );
      if (!route.writesSiteAssets) {
        expect(s3).toEqual([]);
        continue;
      }
      const actions = s3.flatMap(actionsOf);
      // Behaviour IAM-5: the two calls made, not DeleteObjectVersion or the retention actions.
      expect([...actions].sort()).toEqual(['s3:DeleteObject', 's3:PutObject']);
      expect(actions.filter((a) => /^s3:(Get|List)/.test(a))).toEqual([]);
      for (const statement of s3) {
        const resourcesOf = [statement.Resource].flat();
        expect(resourcesOf).toHaveLength(1);
        expect(JSON.stringify(resourcesOf[0])).toMatch(/"\/branding\/\*"\]\]\}$/);
        expect(JSON.stringify(resourcesOf[0])).toContain(logicalId(synthesized.stack.server.jwks.bucket));
      }
    }
  });

  test('only the logo rows learn the bucket name (SITE_ASSETS_BUCKET)', () => {
    for (const route of routes) {
      const variables = resources(synthesized.template, 'AWS::Lambda::Function')[functionId(route.name)]!.Properties.Environment.Variables;
      expect('SITE_ASSETS_BUCKET' in variables).toBe(route.writesSiteAssets === true);
    }
  });

  test('CloudFront serves branding/* with X-Content-Type-Options: nosniff and a year of caching', () => {
    const headers = logicalId(synthesized.stack.server.jwks.siteAssetHeaders);
    synthesized.template.hasResourceProperties('AWS::CloudFront::ResponseHeadersPolicy', {
      ResponseHeadersPolicyConfig: Match.objectLike({
        SecurityHeadersConfig: Match.objectLike({ ContentTypeOptions: { Override: true } }),
      }),
    });
    const [distribution] = Object.values(resources(synthesized.template, 'AWS::CloudFront::Distribution'));
    const behaviours = distribution!.Properties.DistributionConfig.CacheBehaviors as any[];
    const branding = behaviours.find((b) => b.PathPattern === 'branding/*');
    expect(branding).toMatchObject({ ViewerProtocolPolicy: 'redirect-to-https', ResponseHeadersPolicyId: { Ref: headers } });
    const policy = resources(synthesized.template, 'AWS::CloudFront::ResponseHeadersPolicy')[headers]!;
    expect(policy.Properties.ResponseHeadersPolicyConfig.SecurityHeadersConfig.ContentTypeOptions).toEqual({ Override: true });
    const cachePolicy = resources(synthesized.template, 'AWS::CloudFront::CachePolicy')[branding.CachePolicyId.Ref]!;
    expect(cachePolicy.Properties.CachePolicyConfig).toMatchObject({ DefaultTTL: 365 * 24 * 3600 });
  });

  test('API Gateway passes image bodies base64-encoded, bytes intact (binaryMediaTypes)', () => {
    synthesized.template.hasResourceProperties('AWS::ApiGateway::RestApi', {
      BinaryMediaTypes: Match.arrayWith(['image/png', 'image/jpeg', 'image/webp']),
    });
  });
});

describe('JWKS publication', () => {
  test('the JWKS bucket blocks all public access, is versioned and retained', () => {
    synthesized.template.hasResource('AWS::S3::Bucket', {
      DeletionPolicy: 'Retain',
      Properties: Match.objectLike({
        PublicAccessBlockConfiguration: {
          BlockPublicAcls: true,
          BlockPublicPolicy: true,
          IgnorePublicAcls: true,
          RestrictPublicBuckets: true,
        },
        VersioningConfiguration: { Status: 'Enabled' },
      }),
    });
  });

  test('the JWKS bucket policy denies requests without TLS', () => {
    synthesized.template.hasResourceProperties('AWS::S3::BucketPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Action: 's3:*', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
  });

  test('CloudFront reads the bucket through origin access control and redirects to HTTPS', () => {
    synthesized.template.resourceCountIs('AWS::CloudFront::OriginAccessControl', 1);
    synthesized.template.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({
        DefaultCacheBehavior: Match.objectLike({ ViewerProtocolPolicy: 'redirect-to-https' }),
        Origins: [Match.objectLike({ OriginAccessControlId: { 'Fn::GetAtt': [Match.anyValue(), 'Id'] } })],
      }),
    });
    synthesized.template.hasResourceProperties('AWS::CloudFront::CachePolicy', {
      CachePolicyConfig: Match.objectLike({ DefaultTTL: 300, MaxTTL: 300 }),
    });
  });

  test('a custom resource creates the signing key set and publishes jwks.json on deploy', () => {
    synthesized.template.hasResource('AWS::SecretsManager::Secret', { DeletionPolicy: 'Retain' });
    synthesized.template.hasResourceProperties('Custom::SigningKeySet', {
      ObjectKey: 'jwks.json',
      Alg: 'RS256',
      MaxAgeSeconds: '300',
    });
  });
});

describe('edge', () => {
  test('a regional WAF web ACL is associated with the API stage', () => {
    const stageId = logicalId(synthesized.stack.server.api.deploymentStage);
    const aclId = logicalId(synthesized.stack.server.webAcl.webAcl);
    synthesized.template.hasResourceProperties('AWS::WAFv2::WebACL', { Scope: 'REGIONAL', DefaultAction: { Allow: {} } });
    const [association] = Object.values(resources(synthesized.template, 'AWS::WAFv2::WebACLAssociation'));
    expect(JSON.stringify(association!.Properties.ResourceArn)).toContain(stageId);
    expect(association!.Properties.WebACLArn).toEqual({ 'Fn::GetAtt': [aclId, 'Arn'] });
  });

  test('API Gateway’s own errors use the service’s JSON error shape (THROTTLED → 429 too_many_requests)', () => {
    const responses = Object.values(resources(synthesized.template, 'AWS::ApiGateway::GatewayResponse'));
    for (const response of responses) {
      const body = JSON.parse(response.Properties.ResponseTemplates['application/json']);
      expect(Object.keys(body).sort()).toEqual(['error', 'error_description']);
    }
    const byType = (type: string) => responses.find((r) => r.Properties.ResponseType === type)!.Properties;
    expect(byType('THROTTLED').StatusCode).toBe('429');
    expect(JSON.parse(byType('THROTTLED').ResponseTemplates['application/json']).error).toBe('too_many_requests');
    expect(byType('MISSING_AUTHENTICATION_TOKEN').StatusCode).toBe('404');
    expect(byType('DEFAULT_4XX')).toBeDefined();
    expect(byType('DEFAULT_5XX')).toBeDefined();
  });
});

describe('CloudFormation limits', () => {
  // CloudFormation refuses a template of more than 500 resources. Each route family has a
  // nested stack of functions and one of API methods (lib/route-families.ts, lib/route-api.ts),
  // the RestApi and its deployment stay in the stack; 400 keeps a margin in each. The next
  // issues add about 20 routes: 30 rows are simulated, each on a path of its own with a
  // templated segment (two new API resources, a method, the fallback's ANY method), which
  // costs the methods' stacks more than most real rows would.
  const futureRow = (i: number, prefix: string): Route => ({
    name: `Future${i}`,
    method: i % 2 ? 'POST' : 'GET',
    path: `${prefix}future-${i}/{future_id}`,
    handler: 'health',
    auth: 'none',
    storage: { client: ['get', 'put'], session: 'get' },
    hashes: i % 3 === 0,
  });
  const prefixes = ['/api/admin/', '/api/auth/', '/api/token/', '/api/users/', '/dashboard/'];
  const spread = Array.from({ length: 30 }, (_, i) => futureRow(i, prefixes[i % prefixes.length]!));
  const oneFamily = Array.from({ length: 30 }, (_, i) => futureRow(i, '/api/admin/'));

  const resourceCount = (template: Template) => Object.keys(template.toJSON().Resources as object).length;
  const largestTemplate = (s: Synthesized) =>
    s.templates
      .map(({ path, template }) => ({ path, resources: resourceCount(template) }))
      .reduce((largest, t) => (t.resources > largest.resources ? t : largest));

  test.each([
    ['the route table as it is', [] as Route[]],
    ['30 more rows spread over the families', spread],
    ['30 more rows all in the largest family (admin API)', oneFamily],
  ])('every template, the stack’s and each nested stack’s, stays at or below 400 resources: %s', (_case, extra) => {
    const s = extra.length === 0 ? synthesized : synthesize({}, { routes: [...routes, ...extra] });
    // The rows were deployed: one function each, in some nested stack.
    s.template.resourceCountIs('AWS::Lambda::Function', routes.length + extra.length + jobs.length + 1 + 1 + 1 + 1 + 2 * 2);
    expect(s.templates.length).toBeGreaterThan(1);
    const largest = largestTemplate(s);
    expect(largest.resources).toBeGreaterThan(100);
    expect({ ...largest, resources: largest.resources <= 400 }).toEqual({ ...largest, resources: true });
    // The stack's own count does not follow the rows: theirs are all in the nested stacks.
    expect(resourceCount(s.templates[0]!.template)).toBe(resourceCount(synthesized.templates[0]!.template));
  });

  test('route functions, with their roles, policies, log groups and invoke permissions, live in nested stacks; their methods and path resources in a nested stack per family beside them; the stack keeps the API, its deployment, the root’s methods and the resources families share', () => {
    const stackTemplate = synthesized.templates[0]!.template;
    const inStack = (type: string) => Object.keys(resources(stackTemplate, type)).length;
    const templateAt = (path: string) => synthesized.templates.find((t) => t.path === path)!.template;
    // The fallback, key rotation and two custom resources (a handler and a provider each); the
    // scheduled jobs and the audit exporter live in nested stacks of their own.
    expect(inStack('AWS::Lambda::Function')).toBe(1 + 1 + 2 * 2);
    // The fallback's ANY on the root and on /{proxy+}, whatever the rows.
    expect(inStack('AWS::ApiGateway::Method')).toBe(2);
    // Resources: /{proxy+} and the paths above rows of more than one family (/api).
    const familiesUnder = (path: string) =>
      new Set(routes.filter((r) => r.path === path || r.path.startsWith(`${path}/`)).map((r) => routeFamily(r).id));
    const shared = [
      ...new Set(
        routes.flatMap((r) =>
          r.path
            .split('/')
            .slice(1)
            .map((_, i, parts) => `/${parts.slice(0, i + 1).join('/')}`),
        ),
      ),
    ]
      .filter((path) => familiesUnder(path).size > 1)
      .sort();
    expect(shared).toContain('/api');
    const stackResourcePaths = Object.keys(resources(stackTemplate, 'AWS::ApiGateway::Resource')).map((id) =>
      resourcePaths(synthesized.template).get(id),
    );
    expect(stackResourcePaths.sort()).toEqual(['/{proxy+}', ...shared].sort());
    const methods = resources(synthesized.template, 'AWS::ApiGateway::Method');
    for (const route of routes) {
      const fn = synthesized.stack.server.functions[route.name]!;
      expect(Stack.of(fn)).not.toBe(synthesized.stack);
      const nested = templateAt(Stack.of(fn).node.path);
      const id = functionId(route.name);
      expect(Object.keys(resources(nested, 'AWS::Lambda::Function'))).toContain(id);
      const permissions = Object.values(resources(nested, 'AWS::Lambda::Permission')).filter(
        (p) => JSON.stringify(p.Properties.FunctionName) === JSON.stringify({ 'Fn::GetAtt': [id, 'Arn'] }),
      );
      // One invoke permission per function, for its own method and path only.
      expect(permissions).toHaveLength(1);
      expect(permissions[0]!.Properties.Principal).toBe('apigateway.amazonaws.com');
      const sourceArn = JSON.stringify(permissions[0]!.Properties.SourceArn);
      expect(sourceArn).toContain(`/prod/${route.method}${route.path.replace(/\{[^}]*\}/g, '*')}"`);
      // The row's method, the fallback's ANY and any preflight of its path: in its family's methods stack.
      const methodsStack = synthesized.stack.server.methodStacks[routeFamily(route).methodsId]!;
      const onPath = Object.keys(methods).filter((m) => methodPath(synthesized.template, methods[m]) === route.path);
      expect(onPath.length).toBeGreaterThanOrEqual(2);
      expect(Object.keys(resources(templateAt(methodsStack.node.path), 'AWS::ApiGateway::Method'))).toEqual(expect.arrayContaining(onPath));
    }
  });

  test('the deployment depends on every methods stack, and a change to a method in one of them alone brings a new deployment (the stage is redeployed)', () => {
    const deploymentOf = (s: Synthesized) => Object.entries(resources(s.templates[0]!.template, 'AWS::ApiGateway::Deployment'));
    const [[deploymentId, deployment]] = deploymentOf(synthesized) as [[string, any]];
    const methodStacks = Object.values(synthesized.stack.server.methodStacks);
    expect(methodStacks).toHaveLength(routeFamilies.length);
    for (const nested of methodStacks) {
      expect(deployment.DependsOn).toContain(logicalId(nested.nestedStackResource!));
    }
    // An OPTIONS preflight more on an admin path: nothing of the stack's own template changes but the deployment.
    const row = routes.findIndex((r) => routeFamily(r).key === 'admin' && !r.crossOrigin);
    const changed = synthesize({}, { routes: routes.map((r, i) => (i === row ? { ...r, crossOrigin: true } : r)) });
    const changedId = deploymentOf(changed)[0]![0];
    expect(changedId).not.toBe(deploymentId);
    const stageOf = (s: Synthesized) => Object.values(resources(s.templates[0]!.template, 'AWS::ApiGateway::Stage'))[0]!.Properties;
    expect(stageOf(changed).DeploymentId).toEqual({ Ref: changedId });
    // And the same rows give the same deployment: no redeploy without a change.
    expect(deploymentOf(synthesize())[0]![0]).toBe(deploymentId);
  });
});
