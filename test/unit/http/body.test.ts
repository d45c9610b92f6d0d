import { InvalidRequestError, PayloadTooLargeError, UnsupportedMediaTypeError } from '../../../lambdas/core/errors';
import { maxBodyBytes, parseBody } from '../../../lambdas/http/body';

const event = (contentType: string | undefined, body: string | null, isBase64Encoded = false) => ({
  headers: contentType ? { 'Content-Type': contentType } : {},
  body,
  isBase64Encoded,
});

describe('request bodies: malformed input is a 4xx, never a 500', () => {
  it('parses a form body, case-insensitive header, with a charset parameter', () => {
    expect(
      parseBody({ ...event(undefined, 'a=1&b=x+y'), headers: { 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' } }, [
        'form',
      ]),
    ).toEqual({ a: '1', b: 'x y' });
  });

  it('RFC 6749 3.1: refuses a repeated form parameter', () => {
    expect(() => parseBody(event('application/x-www-form-urlencoded', 'a=1&a=2'), ['form'])).toThrow(InvalidRequestError);
  });

  it('parses a JSON object and a base64-encoded body', () => {
    const encoded = Buffer.from('{"x":1}').toString('base64');
    expect(parseBody(event('application/json', encoded, true), ['json'])).toEqual({ x: 1 });
  });

  it.each(['{', '[1,2]', 'null', '"text"', ''])('refuses %j as a JSON object body with invalid_request', (body) => {
    expect(() => parseBody(event('application/json', body), ['json'])).toThrow(InvalidRequestError);
  });

  it('refuses a media type the endpoint does not accept with 415', () => {
    const error = (() => {
      try {
        parseBody(event('text/plain', 'x'), ['json', 'form']);
      } catch (e) {
        return e as UnsupportedMediaTypeError;
      }
    })();
    expect(error).toBeInstanceOf(UnsupportedMediaTypeError);
    expect(error?.status).toBe(415);
    expect(error?.description).toBe('The request body must be application/json or application/x-www-form-urlencoded.');
  });

  it('refuses a body over the size limit with 413', () => {
    expect(() => parseBody(event('application/json', ' '.repeat(maxBodyBytes + 1)), ['json'])).toThrow(PayloadTooLargeError);
  });
});
