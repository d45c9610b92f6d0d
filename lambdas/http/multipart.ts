/**
 * multipart/form-data (RFC 7578) as a browser sends one small form with one file: the dashboard's
 * logo upload. Parts are found by their boundary in the bytes (a file is binary, so never decoded
 * as text); each part's headers give its field name and, for the file, its declared type. Anything
 * malformed is a 400, never a 500.
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { InvalidRequestError, UnsupportedMediaTypeError } from '../core/errors';
import { binaryBody } from './binary-body';
import { header } from './body';

export interface FormPart {
  readonly name: string;
  readonly filename?: string;
  readonly contentType?: string;
  readonly data: Buffer;
}

const unreadable = () => new InvalidRequestError('The form could not be read (multipart/form-data).');

/** At most this many parts: a form of a few fields and one file. */
const maxParts = 10;
const maxHeaderBytes = 1024;

function boundaryOf(event: Pick<APIGatewayProxyEvent, 'headers'>): string {
  const value = header(event, 'content-type') ?? '';
  if (value.split(';')[0]!.trim().toLowerCase() !== 'multipart/form-data') {
    throw new UnsupportedMediaTypeError('The request body must be multipart/form-data.');
  }
  const found = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;]{1,70}))/i.exec(value);
  if (!found) throw unreadable();
  return found[1] ?? found[2]!;
}

function partHeaders(text: string): Omit<FormPart, 'data'> {
  let name: string | undefined;
  let filename: string | undefined;
  let contentType: string | undefined;
  for (const line of text.split('\r\n')) {
    const at = line.indexOf(':');
    if (at < 0) throw unreadable();
    const field = line.slice(0, at).trim().toLowerCase();
    const value = line.slice(at + 1).trim();
    if (field === 'content-disposition') {
      if (!/^form-data\b/i.test(value)) throw unreadable();
      name = /;\s*name="([^"]*)"/i.exec(value)?.[1];
      filename = /;\s*filename="([^"]*)"/i.exec(value)?.[1];
    } else if (field === 'content-type') {
      contentType = value.split(';')[0]!.trim().toLowerCase();
    }
  }
  if (name === undefined) throw unreadable();
  return { name, ...(filename !== undefined ? { filename } : {}), ...(contentType ? { contentType } : {}) };
}

/** The parts of the body, at most `maxBytes` in all (a 413 beyond). */
export function multipartForm(event: Pick<APIGatewayProxyEvent, 'headers' | 'body' | 'isBase64Encoded'>, maxBytes: number): FormPart[] {
  const delimiter = Buffer.from(`--${boundaryOf(event)}`);
  const body = Buffer.from(binaryBody(event, maxBytes));
  let at = body.indexOf(delimiter);
  if (at < 0) throw unreadable();
  const parts: FormPart[] = [];
  for (;;) {
    at += delimiter.length;
    if (body.subarray(at, at + 2).toString('latin1') === '--') return parts;
    if (body.subarray(at, at + 2).toString('latin1') !== '\r\n') throw unreadable();
    const headerEnd = body.indexOf('\r\n\r\n', at + 2);
    if (headerEnd < 0 || headerEnd - at > maxHeaderBytes) throw unreadable();
    const next = body.indexOf(Buffer.concat([Buffer.from('\r\n'), delimiter]), headerEnd + 4);
    if (next < 0) throw unreadable();
    parts.push({ ...partHeaders(body.subarray(at + 2, headerEnd).toString('utf8')), data: body.subarray(headerEnd + 4, next) });
    if (parts.length > maxParts) throw unreadable();
    at = next + 2;
  }
}
