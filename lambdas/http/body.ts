import type { APIGatewayProxyEvent } from 'aws-lambda';
import { InvalidRequestError, PayloadTooLargeError, UnsupportedMediaTypeError } from '../core/errors';

export type BodyFormat = 'json' | 'form';
export type FormFields = Record<string, string>;

/** Far above any legitimate OAuth request; refuses oversized bodies before parsing them. */
export const maxBodyBytes = 64 * 1024;

export function header(event: Pick<APIGatewayProxyEvent, 'headers'>, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(event.headers ?? {})) {
    if (key.toLowerCase() === wanted && value !== undefined) return value;
  }
  return undefined;
}

function rawBody(event: Pick<APIGatewayProxyEvent, 'body' | 'isBase64Encoded'>): string {
  if (!event.body) return '';
  const text = event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
  if (Buffer.byteLength(text, 'utf8') > maxBodyBytes) {
    throw new PayloadTooLargeError(`The request body exceeds ${maxBodyBytes} bytes.`);
  }
  return text;
}

/**
 * Parses a form (RFC 6749 3.2: parameters must not repeat) or a JSON object body,
 * accepting only the formats given. Anything malformed is a 4xx, never a 500.
 */
export function parseBody(
  event: Pick<APIGatewayProxyEvent, 'body' | 'isBase64Encoded' | 'headers'>,
  accepted: readonly BodyFormat[],
): unknown {
  const mediaType = (header(event, 'content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  const format: BodyFormat | undefined =
    mediaType === 'application/json' ? 'json' : mediaType === 'application/x-www-form-urlencoded' ? 'form' : undefined;
  if (!format || !accepted.includes(format)) {
    const names = accepted.map((f) => (f === 'json' ? 'application/json' : 'application/x-www-form-urlencoded'));
    throw new UnsupportedMediaTypeError(`The request body must be ${names.join(' or ')}.`);
  }
  const text = rawBody(event);
  return format === 'json' ? parseJsonObject(text) : parseForm(text);
}

function parseJsonObject(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new InvalidRequestError('The request body is not valid JSON.');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new InvalidRequestError('The request body must be a JSON object.');
  }
  return value as Record<string, unknown>;
}

export function parseForm(text: string): FormFields {
  const fields: FormFields = Object.create(null);
  for (const [name, value] of new URLSearchParams(text)) {
    if (name in fields) throw new InvalidRequestError(`The parameter "${name}" is repeated.`);
    fields[name] = value;
  }
  return fields;
}
