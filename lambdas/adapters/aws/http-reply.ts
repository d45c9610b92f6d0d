/**
 * An HTTP/1.1 reply read off a socket, as bytes arrive in whatever pieces the network cuts
 * (RFC 9112): the status line and headers, then a body framed by Transfer-Encoding: chunked
 * (DynamoDB and S3 may answer so), by Content-Length, or else by the connection's end. The
 * body's bytes are kept as they come and decoded as UTF-8 once, at the end, so a character
 * split between two packets survives. 1xx interim replies (100 Continue) are skipped.
 */

/** Bigger heads fail (Node's own parser stops at 16 KiB by default; AWS heads are < 2 KiB). */
export const maxHeadBytes = 64 * 1024;

type State = 'head' | 'length' | 'chunk-size' | 'chunk-data' | 'chunk-end' | 'trailers' | 'until-close' | 'done';

/** A reply the parser cannot read; Node's parser uses the same codes (HPE_*), which retry.ts does not retry. */
export const protocolError = (code: string, message: string): Error & { code: string } => Object.assign(new Error(message), { code });

const statusLine = /^HTTP\/1\.([01]) (\d{3})(?: |$)/;

export class ReplyParser {
  status = 0;
  headers: Record<string, string> = {};
  /** False when the connection cannot carry another exchange: Connection: close, HTTP/1.0, a body read until the end, bytes past the reply. */
  reusable = true;
  private state: State = 'head';
  /** Bytes of an unfinished head, chunk-size line or trailer section, kept for the next packet. */
  private pending: Buffer | undefined;
  private remaining = 0;
  private trailerBytes = 0;
  private readonly body: Buffer[] = [];

  get done(): boolean {
    return this.state === 'done';
  }

  /** Whether the reply's end is the connection's end (no length, not chunked). */
  get endsWithConnection(): boolean {
    return this.state === 'until-close';
  }

  /** Reads one packet; throws a protocolError on a reply it cannot parse. */
  feed(packet: Buffer): void {
    let buffer = packet;
    let searchFrom = 0;
    if (this.pending) {
      // Resume a line search just before the old end: the terminator may straddle the packets.
      searchFrom = Math.max(0, this.pending.length - 3);
      buffer = Buffer.concat([this.pending, packet]);
      this.pending = undefined;
    }
    let at = 0;
    while (at < buffer.length) {
      switch (this.state) {
        case 'head': {
          const end = buffer.indexOf('\r\n\r\n', Math.max(at, searchFrom), 'latin1');
          if (end < 0 || end - at > maxHeadBytes) {
            if (buffer.length - at > maxHeadBytes) throw protocolError('HPE_HEADER_OVERFLOW', `reply head over ${maxHeadBytes} bytes`);
            this.pending = buffer.subarray(at);
            return;
          }
          this.readHead(buffer.toString('latin1', at, end));
          at = end + 4;
          break;
        }
        case 'length':
        case 'chunk-data': {
          const take = Math.min(this.remaining, buffer.length - at);
          this.body.push(buffer.subarray(at, at + take));
          this.remaining -= take;
          at += take;
          if (this.remaining === 0) this.state = this.state === 'length' ? 'done' : 'chunk-end';
          break;
        }
        case 'chunk-size': {
          const end = buffer.indexOf('\r\n', Math.max(at, searchFrom), 'latin1');
          if (end < 0) {
            if (buffer.length - at > 1024) throw protocolError('HPE_INVALID_CHUNK_SIZE', 'chunk size line too long');
            this.pending = buffer.subarray(at);
            return;
          }
          // Chunk extensions (`;name=value`) carry nothing we use (RFC 9112 section 7.1.1).
          const line = buffer.toString('latin1', at, end);
          const semicolon = line.indexOf(';');
          const hex = (semicolon < 0 ? line : line.slice(0, semicolon)).trim();
          if (!/^[0-9a-fA-F]{1,12}$/.test(hex)) throw protocolError('HPE_INVALID_CHUNK_SIZE', 'invalid chunk size');
          this.remaining = Number.parseInt(hex, 16);
          this.state = this.remaining === 0 ? 'trailers' : 'chunk-data';
          at = end + 2;
          break;
        }
        case 'chunk-end': {
          if (buffer.length - at < 2) {
            this.pending = buffer.subarray(at);
            return;
          }
          if (buffer[at] !== 13 || buffer[at + 1] !== 10) throw protocolError('HPE_STRICT', 'chunk not followed by CRLF');
          at += 2;
          this.state = 'chunk-size';
          break;
        }
        case 'trailers': {
          // Trailer fields (RFC 9112 section 7.1.2) are read past, not kept: AWS sends checksums there we do not check.
          const end = buffer.indexOf('\r\n', Math.max(at, searchFrom), 'latin1');
          if (end < 0) {
            if (this.trailerBytes + buffer.length - at > maxHeadBytes) throw protocolError('HPE_HEADER_OVERFLOW', 'trailers too long');
            this.pending = buffer.subarray(at);
            return;
          }
          this.trailerBytes += end + 2 - at;
          if (this.trailerBytes > maxHeadBytes) throw protocolError('HPE_HEADER_OVERFLOW', 'trailers too long');
          this.state = end === at ? 'done' : 'trailers';
          at = end + 2;
          break;
        }
        case 'until-close':
          this.body.push(at === 0 ? buffer : buffer.subarray(at));
          at = buffer.length;
          break;
        case 'done':
          // We never pipeline: bytes past the reply mean the stream is not what we think it is.
          this.reusable = false;
          return;
      }
      searchFrom = 0;
    }
  }

  /** The reply ended with the connection (a body read until the end). */
  finishAtEnd(): void {
    this.state = 'done';
  }

  /** The body, decoded once. */
  text(): string {
    const { body } = this;
    if (body.length === 1) return body[0]!.toString('utf8');
    return body.length === 0 ? '' : Buffer.concat(body).toString('utf8');
  }

  private readHead(head: string): void {
    const lines = head.split('\r\n');
    const match = statusLine.exec(lines[0]!);
    if (!match) throw protocolError('HPE_INVALID_CONSTANT', 'invalid HTTP status line');
    const status = Number(match[2]);
    const headers: Record<string, string> = {};
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i]!;
      const colon = line.indexOf(':');
      if (colon <= 0) throw protocolError('HPE_INVALID_HEADER_TOKEN', 'invalid header line');
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      // Repeated fields joined as Node joins them; none of the ones we read is ever repeated.
      headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
    }
    if (status < 200) {
      // An interim reply; the final one follows on the same stream. 101 would switch protocols: we never ask.
      if (status === 101) throw protocolError('HPE_UNEXPECTED_UPGRADE', 'unexpected 101 Switching Protocols');
      return;
    }
    this.status = status;
    this.headers = headers;
    const connection = headers.connection?.toLowerCase() ?? '';
    if (connection.includes('close') || (match[1] === '0' && !connection.includes('keep-alive'))) this.reusable = false;
    const transferEncoding = headers['transfer-encoding'];
    if (status === 204 || status === 304) {
      this.state = 'done';
    } else if (transferEncoding !== undefined) {
      if (!/(?:^|,)\s*chunked\s*$/i.test(transferEncoding)) {
        // Any other final coding is framed by the connection's end (RFC 9112 section 6.3).
        this.reusable = false;
        this.state = 'until-close';
        return;
      }
      // With Content-Length as well the message is suspect; read it chunked, then drop the connection (RFC 9112 section 6.3).
      if (headers['content-length'] !== undefined) this.reusable = false;
      this.state = 'chunk-size';
    } else if (headers['content-length'] !== undefined) {
      const length = headers['content-length'];
      if (!/^\d{1,15}$/.test(length)) throw protocolError('HPE_INVALID_CONTENT_LENGTH', 'invalid Content-Length');
      this.remaining = Number(length);
      this.state = this.remaining === 0 ? 'done' : 'length';
    } else {
      this.reusable = false;
      this.state = 'until-close';
    }
  }
}
