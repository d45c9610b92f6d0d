/**
 * The cdk-nag AwsSolutions findings (and AWS Control Tower proactive controls checked by
 * @cdklabs/cdk-validator-cfnguard) this design accepts, each on the narrowest construct
 * that carries it and with the reason it is acceptable. Everything else cdk-nag reports
 * is fixed in the constructs themselves; test/infra/nag.test.ts fails on any finding
 * not acknowledged here. cdk-nag 3 reads CDK's own acknowledgements (Validations).
 */
import { type CfnElement, Names, Stack, Validations } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';
import type { AuthorizationServer } from './authorization-server';

const ack = (scope: IConstruct, rule: string, reason: string): void => {
  Validations.of(scope).acknowledge({ id: `AwsSolutions::AwsSolutions-${rule}`, reason });
};

const guard = (scope: IConstruct, rule: string, reason: string): void => {
  Validations.of(scope).acknowledge({ id: `cdk-validator-cfnguard::${rule}`, reason });
};

export function acknowledgeNagFindings(server: AuthorizationServer): void {
  acknowledgeAwsSolutions(server);
  acknowledgeControlTower(server);
}

/**
 * Control Tower proactive controls written for organisations with stricter baselines;
 * each acknowledgement says what this stack does instead, so an organisation that needs
 * the control knows what to change.
 */
function acknowledgeControlTower(server: AuthorizationServer): void {
  guard(
    server,
    'lambda_function_public_access_prohibited_check',
    'CT.LAMBDA.PR.2: every invoke permission names its caller (apigateway.amazonaws.com, events.amazonaws.com) with a SourceArn; the rule cannot resolve a SourceArn built with Fn::Join.',
  );
  guard(
    server,
    'lambda_inside_vpc_check',
    'CT.LAMBDA.PR.3: the functions reach only AWS service endpoints (DynamoDB, Secrets Manager, SES, S3); a VPC would add NAT or endpoint cost and cold-start latency and protect no private resource.',
  );
  guard(
    server,
    'cloudwatch_log_group_retention_period_check',
    'CT.CLOUDWATCH.PR.2: retention is the logRetention prop, one month by default (the logs hold client IPs: kept no longer than operations need); set it to a year or more where this control applies.',
  );
  if (!server.encryptionKey) {
    guard(
      server,
      'cloudwatch_log_group_encrypted_check',
      'CT.CLOUDWATCH.PR.3: log groups use CloudWatch Logs service-side encryption by default; logs never carry secrets, tokens or passwords (redacted at the WAF, never logged by the functions). CUSTOMER_MANAGED_KEY (the customerManagedKey prop) puts them under a customer-managed key (behaviour CUSTODY-2).',
    );
  }
  if (!server.tracing) {
    guard(
      server,
      'api_gw_xray_enabled_check',
      'CT.APIGATEWAY.PR.4: X-Ray tracing is off by default to keep per-request cost down (the `tracing` prop turns it on); access logs and every line of the functions’ structured logs carry the request id for tracing a call.',
    );
  }
  // Behaviour OPS-4: the control takes a RedriveAllowPolicy of allowAll or byQueue as the mark of a
  // dead-letter queue; this one denies every source queue on purpose.
  guard(
    server.asyncFailures.queue,
    'sqs_dlq_check',
    'CT.SQS.PR.1: this queue is itself the terminal failure destination of the async invocations and the dead-letter queue of the schedules (lib/async-failures.ts): an operator reads and purges it, nothing consumes it, so a queue behind it would only move the same messages. Its redrive-allow policy denies every source queue, so no other queue in the account can drop messages into it and raise AsyncWorkFailed.',
  );
  const distribution = server.jwks.distribution;
  guard(
    distribution,
    'cloudfront_default_root_object_configured_check',
    'CT.CLOUDFRONT.PR.1: the distribution serves /jwks.json only; the root path answers 403 from the private bucket, which is the intent.',
  );
  guard(
    distribution,
    'cloudfront_access_logs_enabled_check',
    'CT.CLOUDFRONT.PR.5: requests for the public JWKS carry no credentials; CloudFront metrics show its use (same reason as AwsSolutions-CFR3).',
  );
  guard(
    distribution,
    'cloudfront_origin_failover_enabled_check',
    'CT.CLOUDFRONT.PR.3: one regional S3 origin, as for the rest of the stack; resource servers cache the JWKS, so a short origin outage does not stop token validation.',
  );
  if (!server.jwks.domainName) {
    for (const rule of ['cloudfront_custom_ssl_certificate_check', 'cloudfront_sni_enabled_check', 'cloudfront_security_policy_check']) {
      guard(
        distribution,
        rule,
        'CT.CLOUDFRONT.PR.6/7/8: no JWKS_DOMAIN_NAME was given, so the default *.cloudfront.net certificate serves the public JWKS (its minimum protocol is TLSv1, documented); give JWKS_DOMAIN_NAME and JWKS_CERTIFICATE_ARN (the jwksDomain prop) for an alias with TLSv1.2_2021 (behaviour EXPOSURE-2).',
      );
    }
  }
  const bucket = server.jwks.bucket;
  guard(
    bucket,
    's3_bucket_default_encryption_kms_check',
    'CT.S3.PR.10: the bucket holds only public keys; SSE-S3 encryption at rest suffices and keeps CloudFront origin access simple.',
  );
  guard(
    bucket,
    's3_bucket_logging_enabled_check',
    'CT.S3.PR.2: one public object written only by the signing-key functions (same reason as AwsSolutions-S1).',
  );
  guard(
    bucket,
    's3_bucket_object_lock_enabled_check',
    'CT.S3.PR.9: jwks.json is rewritten on every rotation; versioning keeps the history, object lock would only block that.',
  );
  for (const rule of ['s3_lifecycle_policy_check', 's3_version_lifecycle_policy_check']) {
    guard(
      bucket,
      rule,
      'CT.S3.PR.3/6: a few kilobytes per rotation; every past key set is kept on purpose as the audit trail of published keys.',
    );
  }

  // The audit archive (behaviour IAM-4): Object Lock evidence, written by one function.
  const archive = server.auditArchive;
  guard(
    archive.bucket,
    's3_bucket_default_encryption_kms_check',
    'CT.S3.PR.10: SSE-S3 at rest; the objects are admin audit entries (no secret, token or password: behaviour LOG-9), and integrity comes from Object Lock, not from a key.',
  );
  guard(
    archive.bucket,
    's3_bucket_logging_enabled_check',
    'CT.S3.PR.2: written only by the exporter function, under audit/, and locked; no one can change an object, so an access log would record reads only (same reason as AwsSolutions-S1).',
  );
  guard(
    archive.bucket,
    's3_event_notifications_enabled_check',
    'CT.S3.PR.4: no consumer of bucket events; a batch that could not be exported is named on the Failures queue.',
  );
  for (const rule of ['s3_lifecycle_policy_check', 's3_version_lifecycle_policy_check']) {
    guard(
      archive.bucket,
      rule,
      'CT.S3.PR.3/6: versioned; audit evidence is kept past its lock on purpose (a few kilobytes per admin change), and how long beyond is the operator’s policy to add, not ours to expire.',
    );
  }
  guard(
    archive.failures,
    'sqs_dlq_check',
    'CT.SQS.PR.1: this queue is itself the dead-letter destination of the audit stream’s event source mapping (it names failed batches); a queue behind it would hold nothing.',
  );
}

function acknowledgeAwsSolutions(server: AuthorizationServer): void {
  const stack = Stack.of(server);
  const arnOf = (construct: IConstruct) => `<${stack.getLogicalId(construct.node.defaultChild as CfnElement)}.Arn>`;

  // API Gateway
  ack(
    server.api,
    'APIG2',
    'Each function validates its input with zod and answers in the OAuth error shape (RFC 6749 5.2); API Gateway request validators would answer in another shape and duplicate the schemas.',
  );
  const authorization =
    'OAuth endpoints authenticate callers inside the function as their RFCs require (client secrets, PKCE, bearer tokens, API keys, session cookies) and must be reachable unauthenticated at the gateway; admin routes verify admin bearer tokens in the function. An API Gateway or Cognito authorizer cannot express OAuth client authentication.';
  // The routes' methods live in nested stacks of their own (lib/route-api.ts), outside server.api.
  for (const scope of [server.api, ...Object.values(server.methodStacks)]) {
    ack(scope, 'APIG4', authorization);
    ack(scope, 'COG4', authorization);
  }
  const cloudWatchRole = server.api.node.tryFindChild('CloudWatchRole');
  if (cloudWatchRole) {
    ack(
      cloudWatchRole,
      'IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
      'The account-level API Gateway logging role: AWS documents this managed policy as the role API Gateway assumes to write access and execution logs.',
    );
  }

  // JWKS distribution and bucket
  const distribution = server.jwks.distribution;
  ack(
    distribution,
    'CFR1',
    'The JWKS holds public keys that resource servers anywhere must fetch; a geo restriction would break token validation and protect nothing.',
  );
  ack(
    distribution,
    'CFR2',
    'One static public document from S3, GET/HEAD only, cached at the edge and covered by Shield Standard; a CLOUDFRONT-scope web ACL must live in us-east-1 (a second stack) and has nothing to inspect.',
  );
  ack(
    distribution,
    'CFR3',
    'Requests for the public JWKS carry no credentials; CloudFront metrics show its use, and an access-log bucket would be the only ACL-enabled bucket of the stack.',
  );
  if (!server.jwks.domainName) {
    ack(
      distribution,
      'CFR4',
      'No JWKS_DOMAIN_NAME was given: the default *.cloudfront.net certificate fixes the viewer TLS policy at TLSv1 (documented); the document is public (no confidentiality need). The jwksDomain prop (JWKS_DOMAIN_NAME, JWKS_CERTIFICATE_ARN) serves it on an alias with TLSv1.2_2021 (behaviour EXPOSURE-2).',
    );
  }
  ack(
    server.jwks.bucket,
    'S1',
    'A private bucket holding one public object, read only by CloudFront through origin access control and written only by the signing-key functions; versioning keeps every published key set.',
  );

  // The audit archive (behaviour IAM-4).
  const archive = server.auditArchive;
  ack(
    archive.bucket,
    'S1',
    'The audit log’s Object Lock copy, written only by the exporter function under audit/ and locked: no object can be changed or deleted, so an access log would record reads only.',
  );
  ack(
    archive.failures,
    'SQS3',
    'This queue is the dead-letter destination of the audit stream’s event source mapping (it names the batches that could not be exported); cdk-nag does not see an event source mapping’s destination as a DLQ use.',
  );
  ack(
    archive.function.node.findChild('ServiceRole').node.findChild('DefaultPolicy'),
    `IAM5[Resource::<${Stack.of(archive.bucket).getLogicalId(archive.bucket.node.defaultChild as CfnElement)}.Arn>/audit/*]`,
    'The exporter puts one object per stream record under audit/ (audit/<day>/<event id>.json, behaviour IAM-4); s3:PutObject only, on that prefix only.',
  );

  // Secrets
  ack(
    server.signingKeySecret,
    'SMG4',
    'Rotated by the scheduled KeyRotation job, which must publish the next key in jwks.json before it signs and keep the previous one until its tokens expired; Secrets Manager rotation cannot order that.',
  );
  ack(
    server.deviceCookieKeySecret,
    'SMG4',
    'An HMAC key whose rotation must keep the previous key readable for the cookies it sealed (behaviour PWFAIL-6); Secrets Manager rotation would replace it. Rotated by hand when exposure is suspected (docs/deployment.md); a cookie also needs its stored record, so the key alone grants nothing.',
  );
  ack(
    server.adminBootstrap.secret,
    'SMG4',
    'One-time bootstrap credentials: the hashes live in DynamoDB, so Secrets Manager rotation cannot change them. They are handed over and revoked through the admin API (a successor admin client, the bootstrap client deleted), then the value is replaced by a handedOver marker that stops any later seed; the secret itself stays, as the stack\'s resource (behaviour CUSTODY-4, docs/deployment.md "Handing over the first admin").',
  );

  // Function roles: the AWS managed basic execution policy. DynamoDB grants name each table or
  // its gsi1 index and the partition keys (behaviour IAM-1, IAM-2): no wildcard resource.
  for (const child of server.node.findAll()) {
    if (child.node.id !== 'ServiceRole') continue;
    ack(
      child,
      'IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
      'Lambda functions log through the AWS managed basic execution policy: only logs:CreateLogGroup, CreateLogStream and PutLogEvents.',
    );
  }

  // Operations (behaviour OPS-4, OPS-6)
  ack(
    server.asyncFailures.queue,
    'SQS3',
    'This queue is itself the failure destination of the async invocations and the dead-letter queue of the schedules (lib/async-failures.ts); an operator reads and purges it, nothing consumes it, so a queue behind it would only move the same messages.',
  );
  const backupRole = server.backups?.plan.node.tryFindChild('Tables')?.node.tryFindChild('Role');
  if (backupRole) {
    for (const policy of ['AWSBackupServiceRolePolicyForBackup', 'AWSBackupServiceRolePolicyForRestores']) {
      ack(
        backupRole,
        `IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/${policy}]`,
        'The role AWS Backup assumes for this plan: AWS documents these managed policies as what backup and restore jobs need, and keeps them current as resource types change.',
      );
    }
  }

  // Lambda active tracing (the `tracing` prop) grants its own statement on every traced function.
  if (server.tracing) {
    for (const fn of [
      ...Object.values(server.functions),
      server.fallbackFunction,
      ...Object.values(server.jobFunctions),
      server.statisticsRollup.function,
    ]) {
      ack(
        fn.node.findChild('ServiceRole').node.findChild('DefaultPolicy'),
        'IAM5[Resource::*]',
        'X-Ray tracing: xray:PutTraceSegments and xray:PutTelemetryRecords support no resource-level permissions, so Lambda active tracing grants them on *.',
      );
    }
  }

  // Custom-resource providers invoke their handler's versions.
  for (const handlerOwner of [server.node.findChild('SigningKey'), server.adminBootstrap]) {
    const handler = handlerOwner.node.findChild('Handler');
    const framework = handlerOwner.node.findChild('Provider').node.findChild('framework-onEvent');
    ack(
      framework.node.findChild('ServiceRole').node.findChild('DefaultPolicy'),
      `IAM5[Resource::${arnOf(handler)}:*]`,
      'The CDK custom-resource provider may invoke any version of its own handler function, and nothing else.',
    );
  }
  // The logo rows (behaviour SITE-3): s3:PutObject and s3:DeleteObject on branding/* of the JWKS
  // bucket (behaviour IAM-5). The bucket ARN arrives in their nested stack as the parameter CDK names
  // `reference-to-<unique id of the bucket resource>Arn` (aws-cdk-lib core/private/refs).
  const bucketArn = `<referenceto${Names.nodeUniqueId(server.jwks.bucket.node.defaultChild!.node)}Arn>`;
  for (const fn of server.siteAssetFunctions) {
    ack(
      fn.node.findChild('ServiceRole').node.findChild('DefaultPolicy'),
      `IAM5[Resource::${bucketArn}/branding/*]`,
      'The site logo: content-addressed objects under branding/ (server-chosen keys), never jwks.json beside them.',
    );
  }
}
