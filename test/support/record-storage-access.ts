/**
 * Records every DynamoDB request a route makes while the tests run (jest `setupFilesAfterEnv`).
 * The document client's `send` is wrapped before any client exists, so every client the wiring
 * builds (also after `resetContainer()`) goes through it; each request is attributed to the route
 * of the API Gateway event being handled (lambdas/http/request-context.ts, `METHOD resource`).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createRouter } from '../../lambdas/http/router';
import { requestFields } from '../../lambdas/http/request-context';
import { accessesOf, type StorageAccess } from './storage-access';

const route = createRouter();
const seen: (StorageAccess & { route: string })[] = [];
const unattributed: string[] = [];

const original = DynamoDBDocumentClient.prototype.send;
DynamoDBDocumentClient.prototype.send = function send(this: DynamoDBDocumentClient, ...args: unknown[]) {
  const command = args[0] as { constructor: { name: string }; input: Record<string, unknown> };
  const label = requestFields().route;
  if (typeof label === 'string') {
    const [method, resource] = label.split(' ') as [string, string];
    const found = route(method, resource);
    if (found.kind === 'match') {
      for (const access of accessesOf(command.constructor.name, command.input)) seen.push({ ...access, route: found.route.name });
    } else unattributed.push(label);
  }
  return (original as (...a: unknown[]) => unknown).apply(this, args);
} as typeof original;

afterAll(() => {
  const out = process.env.STORAGE_ACCESS_OUT;
  if (!out) return;
  mkdirSync(out, { recursive: true });
  const file = basename(expect.getState().testPath ?? 'unknown');
  writeFileSync(join(out, `${file}.json`), JSON.stringify({ seen, unattributed }));
});
