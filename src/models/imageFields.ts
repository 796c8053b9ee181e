import type { FieldErrors } from '../errors/fieldErrors.js';
import { takeOfferedImage } from './extras/imageUploads.js';
import type { FieldDefinition } from './fieldDefinition.js';
import type { FilterSpec } from './filterTypes.js';
import type { ModelDefinition } from './modelDefinition.js';
import type { StoredObject } from './storedObject.js';

/** A stored file's name: the digest of its bytes and its format's extension. */
const STORED_NAME = /^[0-9a-f]{64}\.(png|jpeg|gif)$/;

/** DRF's message for a value that is not an uploaded file (a JSON string, a URL). */
export const NOT_A_FILE = 'The submitted data was not a file. Check the encoding type on the form.';

/**
 * An image field of a model (a device type's front image): the stored value is the
 * file's name in `media/<directory>/` (its SHA-256 digest and extension), with the
 * digest and size kept beside it, never the bytes. A multipart write puts the request's
 * upload token in the field (see imageUploads.ts); a JSON write may only clear it
 * (null or '') or send back the value it has.
 */
export function imageField(name: string, directory: string, help?: string): FieldDefinition[] {
  return [
    { name, type: 'string', nullable: true, blank: true, default: null, image: { directory }, help },
    { name: `${name}_digest`, type: 'string', internal: true, nullable: true },
    { name: `${name}_size`, type: 'integer', internal: true, nullable: true },
  ];
}

export function imageFieldsOf(definition: ModelDefinition): FieldDefinition[] {
  return definition.fields.filter((f) => f.image);
}

/** A field naming a stored file, and the media directory holding it. */
export interface MediaFileField {
  name: string;
  directory: string;
}

/** Every field of a model that names a stored file: its image fields and any other `mediaFile` field. */
export function mediaFileFields(definition: ModelDefinition): MediaFileField[] {
  const fields: MediaFileField[] = [];
  for (const f of definition.fields) {
    const directory = f.image?.directory ?? f.mediaFile?.directory;
    if (directory) fields.push({ name: f.name, directory });
  }
  return fields;
}

/** The files a change stops naming: named before it, and not (or another one) after it. */
export function filesReleasedBy(
  fields: MediaFileField[],
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
): Array<{ directory: string; file: string }> {
  const released: Array<{ directory: string; file: string }> = [];
  for (const { name, directory } of fields) {
    const was = before?.[name];
    if (typeof was === 'string' && was !== '' && was !== after?.[name]) released.push({ directory, file: was });
  }
  return released;
}

/** Where a directory's files are served, under the service's address. */
export function mediaPath(directory: string): string {
  return `/media/${directory}/`;
}

/** The absolute URL of a stored image, or null when the field holds none. */
export function imageUrl(field: FieldDefinition, value: unknown, baseUrl: string | undefined): string | null {
  return typeof value === 'string' && value !== '' && field.image
    ? `${baseUrl ?? ''}${mediaPath(field.image.directory)}${value}`
    : null;
}

/**
 * The normalisation of a model's image fields, before its own: an upload token becomes
 * the stored file (name, digest, size); null or '' clears the image; the value the
 * object already holds is kept; anything else is refused, so a JSON body cannot point
 * an object at a file.
 */
export function normalizeImageFields(fields: FieldDefinition[], obj: StoredObject): FieldErrors | undefined {
  const errors: FieldErrors = {};
  for (const field of fields) {
    const value = obj[field.name];
    const digest = `${field.name}_digest`;
    const size = `${field.name}_size`;
    if (value === null || value === undefined || value === '') {
      obj[field.name] = null;
      obj[digest] = null;
      obj[size] = null;
      continue;
    }
    const upload = takeOfferedImage(value);
    if (upload) {
      obj[field.name] = upload.file;
      obj[digest] = upload.digest;
      obj[size] = upload.size;
      continue;
    }
    // The stored name starts with the stored digest: the value the object already has.
    const unchanged =
      typeof value === 'string' &&
      typeof obj[digest] === 'string' &&
      STORED_NAME.test(value) &&
      value.startsWith(`${String(obj[digest])}.`);
    if (!unchanged) errors[field.name] = [NOT_A_FILE];
  }
  return Object.keys(errors).length ? errors : undefined;
}

/** `has_<field>`: true → an image is set, false → none. */
export function hasImage(name: string): FilterSpec {
  return {
    kind: 'method',
    value: 'boolean',
    single: true,
    method: ([has]) => (has ? { [name]: { $nin: [null, ''] } } : { [name]: { $in: [null, ''] } }),
  };
}
