/**
 * A raw binary request body (the logo upload). API Gateway base64-encodes bodies of the API's
 * `binaryMediaTypes` (lib/authorization-server.ts) and says so in `isBase64Encoded`; the local
 * server does the same for every non-text type.
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { PayloadTooLargeError } from '../core/errors';
import { header } from './body';

/** The media type without parameters, lower case; empty when absent. */
export const mediaTypeOf = (event: Pick<APIGatewayProxyEvent, 'headers'>): string =>
  (header(event, 'content-type') ?? '').split(';')[0]!.trim().toLowerCase();

/** The body's bytes; over `maxBytes` is a 413 before anything is decoded. */
export function binaryBody(event: Pick<APIGatewayProxyEvent, 'body' | 'isBase64Encoded'>, maxBytes: number): Uint8Array {
  const body = event.body ?? '';
  // Base64 carries 3 bytes in 4 characters: refuse by the encoded length, before allocating.
  const approximateBytes = event.isBase64Encoded ? Math.floor((body.length * 3) / 4) : body.length;
  if (approximateBytes > maxBytes + 3) throw new PayloadTooLargeError(`The body is over ${maxBytes} bytes.`);
  return event.isBase64Encoded ? Buffer.from(body, 'base64') : Buffer.from(body, 'utf8');
}
