import type { IncomingMessage } from 'node:http';

import busboy from 'busboy';

import type { BodyLimits } from './readRequestBody.js';

export interface UploadedFile {
  /** The form part's name (e.g. `image`). */
  field: string;
  /** The file name the client gave. */
  filename: string;
  bytes: Buffer;
}

export type MultipartRead =
  | { outcome: 'complete'; fields: Record<string, string>; files: UploadedFile[] }
  | { outcome: 'tooLarge' }
  | { outcome: 'timeout' }
  | { outcome: 'aborted' }
  | { outcome: 'malformed'; detail: string };

/** Parts beyond these are no upload a client of this API sends. */
const MAX_PARTS = 100;
const MAX_FILES = 4;

/**
 * Reads a multipart/form-data body (a file upload) under the body size cap and deadline:
 * the text parts as fields (the last of a repeated name wins), the file parts whole in
 * memory. A body over the cap, in all its parts, is refused rather than cut.
 */
export function readMultipartBody(req: IncomingMessage, limits: BodyLimits): Promise<MultipartRead> {
  return new Promise((resolve) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        defParamCharset: 'utf8',
        limits: { fileSize: limits.maxBytes, fieldSize: limits.maxBytes, files: MAX_FILES, parts: MAX_PARTS },
      });
    } catch (error) {
      resolve({ outcome: 'malformed', detail: `Multipart form parse error - ${(error as Error).message}` });
      return;
    }
    const fields: Record<string, string> = {};
    const files: UploadedFile[] = [];
    let size = 0;
    let settled = false;
    const finish = (read: MultipartRead) => {
      if (settled) return;
      settled = true;
      if (timer) clearTimeout(timer);
      req.off('close', onClose);
      if (read.outcome !== 'complete') {
        req.unpipe(parser);
        req.resume(); // drain and drop the rest
      }
      resolve(read);
    };
    const grow = (n: number) => {
      size += n;
      if (size > limits.maxBytes) finish({ outcome: 'tooLarge' });
    };
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) return finish({ outcome: 'tooLarge' });
      grow(Buffer.byteLength(value));
      fields[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => {
        grow(chunk.length);
        if (!settled) chunks.push(chunk);
      });
      stream.on('limit', () => finish({ outcome: 'tooLarge' }));
      stream.on('end', () => files.push({ field: name, filename: info.filename ?? '', bytes: Buffer.concat(chunks) }));
    });
    parser.on('partsLimit', () =>
      finish({ outcome: 'malformed', detail: 'Multipart form parse error - too many parts.' }),
    );
    parser.on('filesLimit', () =>
      finish({ outcome: 'malformed', detail: 'Multipart form parse error - too many files.' }),
    );
    parser.on('error', (error: Error) =>
      finish({ outcome: 'malformed', detail: `Multipart form parse error - ${error.message}` }),
    );
    parser.on('close', () => finish({ outcome: 'complete', fields, files }));
    const onClose = () => {
      if (!req.readableEnded) finish({ outcome: 'aborted' });
    };
    req.on('close', onClose);
    const timer = limits.timeoutMs > 0 ? setTimeout(() => finish({ outcome: 'timeout' }), limits.timeoutMs) : null;
    req.pipe(parser);
  });
}
