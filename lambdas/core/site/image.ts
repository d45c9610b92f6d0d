/**
 * What an uploaded image is, read from its bytes (the magic numbers, ASVS 5.2.2) and its size from
 * the header alone (ASVS 5.2.6: nothing is decoded, so a pixel flood costs nothing here). Only
 * PNG, JPEG and WebP are recognised; SVG is named so the refusal can say why (it is XML that can
 * carry script).
 */
import type { LogoContentType } from './settings';

export type ImageInspection =
  | { readonly kind: 'image'; readonly contentType: LogoContentType; readonly width: number; readonly height: number }
  /** A recognised type whose header is cut short or malformed. */
  | { readonly kind: 'broken'; readonly contentType: LogoContentType }
  | { readonly kind: 'svg' }
  | { readonly kind: 'unknown' };

const startsWith = (bytes: Uint8Array, signature: readonly number[], at = 0) =>
  bytes.length >= at + signature.length && signature.every((b, i) => bytes[at + i] === b);
const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));
const u16be = (b: Uint8Array, at: number) => (b[at]! << 8) | b[at + 1]!;
const u32be = (b: Uint8Array, at: number) => ((b[at]! << 24) >>> 0) + (b[at + 1]! << 16) + (b[at + 2]! << 8) + b[at + 3]!;
const u16le = (b: Uint8Array, at: number) => b[at]! | (b[at + 1]! << 8);
const u24le = (b: Uint8Array, at: number) => b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16);

const pngSignature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

export function inspectImage(bytes: Uint8Array): ImageInspection {
  if (startsWith(bytes, pngSignature)) return png(bytes);
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return jpeg(bytes);
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return webp(bytes);
  if (looksLikeMarkup(bytes)) return { kind: 'svg' };
  return { kind: 'unknown' };
}

/** PNG 1.2 section 11.2.2: the first chunk is IHDR, width and height big-endian. */
function png(bytes: Uint8Array): ImageInspection {
  if (bytes.length < 24 || !startsWith(bytes, ascii('IHDR'), 12)) return { kind: 'broken', contentType: 'image/png' };
  return sized('image/png', u32be(bytes, 16), u32be(bytes, 20));
}

/** JPEG (ITU T.81 B.1.1): walk the marker segments to the first start-of-frame, which holds the size. */
function jpeg(bytes: Uint8Array): ImageInspection {
  let at = 2;
  while (at + 3 < bytes.length) {
    if (bytes[at] !== 0xff) break;
    const marker = bytes[at + 1]!;
    if (marker === 0xff) {
      at++; // fill byte
      continue;
    }
    // Markers without a length: TEM and RST0..RST7.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) break; // end of image, or scan data before any frame
    const length = u16be(bytes, at + 2);
    if (length < 2) break;
    const isStartOfFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isStartOfFrame) {
      if (at + 9 > bytes.length) break;
      return sized('image/jpeg', u16be(bytes, at + 7), u16be(bytes, at + 5));
    }
    at += 2 + length;
  }
  return { kind: 'broken', contentType: 'image/jpeg' };
}

/** WebP container (RFC 9649): lossy `VP8 `, lossless `VP8L` or extended `VP8X` first chunk. */
function webp(bytes: Uint8Array): ImageInspection {
  const broken = { kind: 'broken', contentType: 'image/webp' } as const;
  if (startsWith(bytes, ascii('VP8 '), 12)) {
    // RFC 6386 9.1: a 3-byte frame tag, the start code, then 14-bit width and height.
    if (bytes.length < 30 || !startsWith(bytes, [0x9d, 0x01, 0x2a], 23)) return broken;
    return sized('image/webp', u16le(bytes, 26) & 0x3fff, u16le(bytes, 28) & 0x3fff);
  }
  if (startsWith(bytes, ascii('VP8L'), 12)) {
    // RFC 9649 3.7.1: the signature byte 0x2f, then width - 1 and height - 1 in 14 bits each.
    if (bytes.length < 25 || bytes[20] !== 0x2f) return broken;
    const bits = (bytes[21]! | (bytes[22]! << 8) | (bytes[23]! << 16) | (bytes[24]! << 24)) >>> 0;
    return sized('image/webp', (bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
  }
  if (startsWith(bytes, ascii('VP8X'), 12)) {
    // RFC 9649 3.7.3: canvas width - 1 and height - 1, 24 bits each.
    if (bytes.length < 30) return broken;
    return sized('image/webp', u24le(bytes, 24) + 1, u24le(bytes, 27) + 1);
  }
  return broken;
}

function sized(contentType: LogoContentType, width: number, height: number): ImageInspection {
  return width > 0 && height > 0 ? { kind: 'image', contentType, width, height } : { kind: 'broken', contentType };
}

/** Text starting with `<` after an optional BOM and white space: SVG, XML or HTML. */
function looksLikeMarkup(bytes: Uint8Array): boolean {
  let at = startsWith(bytes, [0xef, 0xbb, 0xbf]) ? 3 : 0;
  while (at < bytes.length && at < 1024 && [0x20, 0x09, 0x0a, 0x0d].includes(bytes[at]!)) at++;
  if (bytes[at] !== 0x3c) return false;
  const head = new TextDecoder('utf-8', { fatal: false }).decode(bytes.subarray(at, at + 4096)).toLowerCase();
  return head.includes('<svg') || head.startsWith('<?xml') || head.startsWith('<!doctype');
}
