// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import { identityFields } from '../commonFields.js';
import { contentTypeIdFilter } from '../contentTypeIdFilter.js';
import { BEYOND_NETBOX } from '../filterSpecs.js';
import type { ModelDefinition } from '../modelDefinition.js';
import type { StoredObject } from '../storedObject.js';
import { IMAGE_MODELS } from './featureModels.js';
import { takeOfferedImage } from './imageUploads.js';

/** Where attachments' files are served, under the service's address. */
export const IMAGE_MEDIA_PATH = '/media/image-attachments/';

/** The media directory holding attachments' files. */
const IMAGE_DIRECTORY = 'image-attachments';
const NO_FILE = { image: ['No file was submitted.'] };
const MAX_DIMENSION = 32767;

/**
 * An image uploaded for one object of a model that has images. The file is stored
 * beside the data, named by its digest, before the write; the object keeps the file's
 * name, size and dimensions, never its bytes. The image can only be given by a
 * multipart upload; its dimensions are read from the file.
 */
export const imageattachment: ModelDefinition = {
  key: 'extras.imageattachment',
  app: 'extras',
  model: 'imageattachment',
  path: 'image-attachments',
  verboseName: 'image attachment',
  verboseNamePlural: 'image attachments',
  fields: [
    ...identityFields,
    { name: 'content_type', type: 'content_type', required: true },
    { name: 'object_id', type: 'integer', required: true, min: 0, max: 9223372036854776000 },
    {
      name: 'parent',
      type: 'generic_fk',
      readOnly: true,
      nullable: true,
      targets: IMAGE_MODELS,
      typeField: 'content_type',
      idField: 'object_id',
      notFound: (type, id) => ({ non_field_errors: [`Invalid parent object: ${type} ID ${String(id)}`] }),
    },
    { name: 'name', type: 'string', blank: true, default: '', maxLength: 50 },
    { name: 'image', type: 'computed', readOnly: true, value: null },
    // The token of the upload the request stored (see imageUploads.ts), consumed by normalize.
    {
      name: 'image_upload',
      type: 'string',
      writeOnly: true,
      nullable: true,
      help: 'Set by the service: send the image as the `image` part of a multipart/form-data POST, beside the other fields.',
    },
    // The stored file's name: deleted once no attachment names it.
    { name: 'image_file', type: 'string', internal: true, nullable: true, mediaFile: { directory: IMAGE_DIRECTORY } },
    { name: 'image_original_name', type: 'string', internal: true, nullable: true },
    { name: 'image_size', type: 'integer', internal: true, nullable: true },
    // Read from the file's header: what a client sends for them is ignored.
    { name: 'image_height', type: 'integer', readOnly: true, min: 0, max: MAX_DIMENSION },
    { name: 'image_width', type: 'integer', readOnly: true, min: 0, max: MAX_DIMENSION },
    // A record's created reads as a date (YYYY-MM-DD); the stored value keeps the full timestamp.
    { name: 'created', type: 'date', readOnly: true, nullable: true },
    { name: 'last_updated', type: 'datetime', readOnly: true, nullable: true },
  ],
  brief: ['id', 'url', 'display', 'name', 'image'],
  ordering: ['name', 'id'],
  search: ['name'],
  filters: {
    content_type_id: contentTypeIdFilter('content_type', { single: true }),
    // NetBox: created exact only (one value, a DateTimeFilter); no last_updated nor image dimension filters
    created: { kind: 'beyond_netbox', lookups: ['n', 'gt', 'gte', 'lt', 'lte'], single: true },
    last_updated: BEYOND_NETBOX,
    image_height: BEYOND_NETBOX,
    image_width: BEYOND_NETBOX,
  },
  hooks: {
    normalize(obj) {
      const token = obj.image_upload;
      delete obj.image_upload;
      if (token !== undefined && token !== null) {
        const image = takeOfferedImage(token);
        if (!image) return NO_FILE;
        // the stored dimensions are small integers, as NetBox's columns are
        if (image.height > MAX_DIMENSION || image.width > MAX_DIMENSION)
          return { image: [`Images larger than ${MAX_DIMENSION} pixels on a side are not accepted.`] };
        obj.image_file = image.file;
        obj.image_original_name = image.originalName;
        obj.image_size = image.size;
        obj.image_height = image.height;
        obj.image_width = image.width;
      }
      if (typeof obj.image_file !== 'string') return NO_FILE;
      return undefined;
    },
    relatedObject: (obj) =>
      typeof obj.content_type === 'string' && typeof obj.object_id === 'number'
        ? { type: obj.content_type, id: obj.object_id }
        : null,
    display: attachmentDisplay,
    compute: {
      image: (obj, _view, baseUrl) =>
        typeof obj.image_file === 'string' ? `${baseUrl ?? ''}${IMAGE_MEDIA_PATH}${obj.image_file}` : null,
    },
  },
};

/** Its name, else the name of the file the client uploaded. */
function attachmentDisplay(obj: StoredObject): string {
  if (typeof obj.name === 'string' && obj.name !== '') return obj.name;
  return typeof obj.image_original_name === 'string' ? obj.image_original_name : String(obj.id);
}
