/**
 * Just what the background invoker (adapters/lambda-invoker.ts) imports on first use: an
 * `import()` of this module keeps only these exports of the package in a bundle, where an
 * `import()` of the package itself would keep every one of its commands.
 */
export { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
