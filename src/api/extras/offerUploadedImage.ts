import path from 'node:path';
import { ValidationError } from '../../commands/errors.js';
import { offerImage } from '../../models/extras/imageUploads.js';
import type { UploadedFile } from '../middleware/readMultipartBody.js';
import type { Services } from '../Services.js';
import { storeImageFile } from './imageFiles.js';
import { readImageHeader } from './imageHeader.js';

const INVALID_IMAGE = 'Upload a valid image. The file you uploaded was either not an image or a corrupted image.';

/**
 * An uploaded file checked as an image (errors under `field`, DRF's messages), stored
 * durably under the media directory before any event names it, and offered to the write
 * side under a one-request token: the only way a write can name a stored file.
 */
export async function offerUploadedImage(services: Services, field: string, file: UploadedFile, directory?: string): Promise<string> {
  if (file.bytes.length === 0) throw new ValidationError({ [field]: ['The submitted file is empty.'] });
  const header = readImageHeader(file.bytes);
  if (!header) throw new ValidationError({ [field]: [INVALID_IMAGE] });
  const stored = await storeImageFile(services.config.dataDir, file.bytes, header.format, directory);
  return offerImage({
    file: stored.file,
    digest: stored.digest,
    size: file.bytes.length,
    originalName: path.basename(file.filename.replaceAll('\\', '/')) || stored.file,
    height: header.height,
    width: header.width,
  });
}
