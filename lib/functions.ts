/**
 * One factory for every Lambda function of the service, so runtime, architecture,
 * bundling and logging are the same everywhere and set in one place.
 */
import * as path from 'node:path';
import { Duration } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { routeTimeoutSeconds } from '../lambdas/routes';
import { depsLockFilePath, functionBundling, packageRoot, projectRoot } from './bundling';

/** Node.js 24 (newer than the required 22): supported by Lambda until 2028. */
export const functionRuntime = lambda.Runtime.NODEJS_24_X;

export interface ServiceFunctionProps {
  /** Source file relative to the package root (lib/bundling.ts `packageRoot`), exporting `handler`. */
  readonly entry: string;
  readonly description: string;
  readonly environment?: Readonly<Record<string, string>>;
  readonly memorySize: number;
  readonly timeout?: Duration;
  readonly logRetention: logs.RetentionDays;
  readonly hashes?: boolean;
  /** X-Ray active tracing (the construct's `tracing` prop). @default false */
  readonly tracing?: boolean;
  /** Lambda reserved concurrency (lib/isolation.ts). @default - none: the account's unreserved pool */
  readonly reservedConcurrency?: number;
}

export function serviceFunction(scope: Construct, id: string, props: ServiceFunctionProps): NodejsFunction {
  // An explicit log group gets its retention without the LogRetention custom resource;
  // like the data, it is retained when the stack is deleted (the LogGroup default).
  const logGroup = new logs.LogGroup(scope, `${id}Logs`, { retention: props.logRetention });
  return new NodejsFunction(scope, id, {
    entry: path.join(packageRoot, props.entry),
    handler: 'handler',
    description: props.description,
    runtime: functionRuntime,
    architecture: lambda.Architecture.ARM_64,
    memorySize: props.memorySize,
    timeout: props.timeout ?? Duration.seconds(routeTimeoutSeconds),
    // POWERTOOLS_TRACE_ENABLED: the AWS SDK clients record each call as an X-Ray subsegment
    // (lambdas/adapters/aws/tracing.ts), loading the tracer only then.
    environment: { ...props.environment, ...(props.tracing ? { POWERTOOLS_TRACE_ENABLED: 'true' } : {}) },
    logGroup,
    // The service writes its own JSON lines; TRACE here leaves LOG_LEVEL the only filter.
    loggingFormat: lambda.LoggingFormat.JSON,
    applicationLogLevelV2: lambda.ApplicationLogLevel.TRACE,
    systemLogLevelV2: lambda.SystemLogLevel.INFO,
    projectRoot,
    depsLockFilePath,
    bundling: functionBundling({ hashes: props.hashes, tracing: props.tracing }),
    // Lambda records each invocation's segment; the trace id reaches the logs (xray_trace_id,
    // lambdas/adapters/json-logger.ts).
    ...(props.tracing ? { tracing: lambda.Tracing.ACTIVE } : {}),
    ...(props.reservedConcurrency !== undefined ? { reservedConcurrentExecutions: props.reservedConcurrency } : {}),
  });
}
