/** What an image file's header says: enough to store and serve it. */
export interface ImageHeader {
  format: 'png' | 'jpeg' | 'gif';
  contentType: string;
  width: number;
  height: number;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * The format and dimensions of a PNG, JPEG or GIF image from its first bytes; null for
 * anything else (including a file cut short before its dimensions). Only the header is
 * read: the pixels are never decoded.
 */
export function readImageHeader(bytes: Buffer): ImageHeader | null {
  return png(bytes) ?? gif(bytes) ?? jpeg(bytes);
}

function png(bytes: Buffer): ImageHeader | null {
  // signature, then the IHDR chunk: length, type, width, height (big-endian)
  if (bytes.length < 24 || !bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return null;
  if (bytes.toString('latin1', 12, 16) !== 'IHDR') return null;
  return sized('png', 'image/png', bytes.readUInt32BE(16), bytes.readUInt32BE(20));
}

function gif(bytes: Buffer): ImageHeader | null {
  if (bytes.length < 10) return null;
  const magic = bytes.toString('latin1', 0, 6);
  if (magic !== 'GIF87a' && magic !== 'GIF89a') return null;
  return sized('gif', 'image/gif', bytes.readUInt16LE(6), bytes.readUInt16LE(8));
}

/** Start-of-frame markers (baseline, progressive, lossless...): they hold the dimensions. */
function isStartOfFrame(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

function jpeg(bytes: Buffer): ImageHeader | null {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return null;
  let at = 2;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1];
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    // markers without a length: restart markers, TEM, start of image
    if ((marker >= 0xd0 && marker <= 0xd8) || marker === 0x01) {
      at += 2;
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return null; // end of image or scan data before any frame header
    const length = bytes.readUInt16BE(at + 2);
    if (length < 2) return null;
    if (isStartOfFrame(marker)) {
      if (at + 9 > bytes.length) return null;
      return sized('jpeg', 'image/jpeg', bytes.readUInt16BE(at + 7), bytes.readUInt16BE(at + 5));
    }
    at += 2 + length;
  }
  return null;
}

function sized(format: ImageHeader['format'], contentType: string, width: number, height: number): ImageHeader | null {
  // A zero dimension is no image to show.
  if (width === 0 || height === 0) return null;
  return { format, contentType, width, height };
}
