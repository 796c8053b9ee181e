import path from 'node:path';

import { ValidationError, WriterUnavailableError } from '../../errors/requestErrors.js';
import { offerImage, takeOfferedImage, withdrawImage } from '../../models/extras/imageUploads.js';
import type { UploadedFile } from '../middleware/readMultipartBody.js';
import type { Services } from '../Services.js';
import { storeImageFile } from './imageFiles.js';
import { readImageHeader } from './imageHeader.js';
import { deleteUnnamedFiles, type MediaFileOwners } from './releaseMediaFiles.js';

const INVALID_IMAGE = 'Upload a valid image. The file you uploaded was either not an image or a corrupted image.';

/**
 * An uploaded file checked as an image (errors under `field`, DRF's messages), stored
 * durably under the media directory before any event names it, and offered to the write
 * side under a one-request token: the only way a write can name a stored file.
 */
export async function offerUploadedImage(
  services: Services,
  field: string,
  file: UploadedFile,
  directory?: string,
): Promise<string> {
  return offerImageBytes(services.config.dataDir, field, file.bytes, file.filename, directory);
}

/**
 * Image bytes (from an upload, or a file an import brought) checked as an upload's are,
 * stored durably under the media directory of `dataDir` and offered to the write side:
 * the upload token a write names the file by.
 */
export async function offerImageBytes(
  dataDir: string,
  field: string,
  bytes: Buffer,
  filename: string,
  directory?: string,
): Promise<string> {
  if (bytes.length === 0) throw new ValidationError({ [field]: ['The submitted file is empty.'] });
  const header = readImageHeader(bytes);
  if (!header) throw new ValidationError({ [field]: [INVALID_IMAGE] });
  // Offered while the file is locked: from then on the offer keeps it from being deleted.
  return storeImageFile(dataDir, bytes, header.format, directory, (stored) =>
    offerImage({
      file: stored.file,
      digest: stored.digest,
      size: bytes.length,
      originalName: path.basename(filename.replaceAll('\\', '/')) || stored.file,
      height: header.height,
      width: header.width,
    }),
  );
}

/** An upload offered to the write side: its token and the media directory its file went to. */
export interface OfferedUpload {
  token: string;
  directory: string | undefined;
}

/**
 * The request is answered: its uploads' tokens are worthless. When its write failed, the
 * files it stored are deleted unless something else names them (the same bytes, uploaded
 * for another object). Not when the writer could not say whether the write was committed
 * (WriterUnavailableError): the file may be named by a durable event; it stays, an orphan
 * at worst.
 */
export async function withdrawUploads(services: Services, uploads: OfferedUpload[], failure: unknown): Promise<void> {
  const { config, registry, store, logger } = services;
  await withdrawOffered({ dataDir: config.dataDir, registry, store, logger }, uploads, failure);
}

/** withdrawUploads with the files' owners given (an import's ledger, outside a request). */
export async function withdrawOffered(
  owners: MediaFileOwners,
  uploads: OfferedUpload[],
  failure: unknown,
): Promise<void> {
  const files = uploads.flatMap(({ token, directory }) => {
    const image = takeOfferedImage(token);
    return image ? [{ directory: directory ?? 'image-attachments', file: image.file }] : [];
  });
  for (const { token } of uploads) withdrawImage(token);
  if (failure === undefined || failure instanceof WriterUnavailableError) return;
  await deleteUnnamedFiles(owners, files);
}
