/**
 * X-Ray subsegments for AWS calls, through Powertools Tracer's SDK v3 capture. Loaded on the first
 * call of a traced client only: the tracer and the X-Ray SDK under it are imported when the
 * deployment turned tracing on (the construct's `tracing` prop sets POWERTOOLS_TRACE_ENABLED),
 * so an untraced function never pays their import. Tracing also needs Lambda's environment
 * (AWS_EXECUTION_ENV, the trace header): the local server never traces.
 */
let tracer: Promise<{ captureAWSv3Client<T>(client: T): T } | undefined> | undefined;

export async function traceAwsClient(client: unknown): Promise<void> {
  // Only the AWS calls: patching every http(s) request of the process globally is not ours to do.
  tracer ??= import('@aws-lambda-powertools/tracer').then(
    ({ Tracer }) => new Tracer({ enabled: true, captureHTTPsRequests: false }),
    // Not bundled (the deployment's `tracing` prop is off, lib/bundling.ts), though the variable
    // was set by hand: the calls go on, untraced, rather than fail.
    () => undefined,
  );
  (await tracer)?.captureAWSv3Client(client);
}
