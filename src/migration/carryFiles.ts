/**
 * The source's media files brought with their objects: every field the registry marks
 * as naming a stored file (image fields, an image attachment's file) is read from the
 * source, checked and stored here as an upload is, before the import's single write
 * names it by its upload token. A file that cannot be carried refuses the import before
 * anything is written, unless the operator skips it (`--skip-missing-media`).
 */
import { ValidationError } from '../errors/requestErrors.js';
import type { ModelDefinition } from '../models/modelDefinition.js';
import { type MediaReader, MediaUnreadableError } from './mediaReaders.js';

/**
 * Stores files as the service stores uploads (the api layer's, wired in by the CLI):
 * the migration layer does not depend on it.
 */
export interface ImageStore {
  /** The largest file accepted: the service's upload limit. */
  readonly maxBytes: number;
  /**
   * Checks the bytes are an image the service accepts (a ValidationError else), stores
   * them durably under their digest and returns the upload token a write names them by.
   */
  offer(bytes: Buffer, directory: string, filename: string): Promise<string>;
  /**
   * The write that named the files is over: the tokens are worthless. When it failed
   * (`failure` set), the files are deleted unless something names them, except where
   * the writer could not say whether the write was committed (as for uploads).
   */
  release(offered: readonly OfferedFile[], failure?: unknown): Promise<void>;
}

export interface OfferedFile {
  token: string;
  directory: string;
}

/** A field naming a stored file, as an import reads and writes it. */
export interface CarriedFileField {
  /** Where the source's API shows the file's URL. */
  shownIn: string;
  /** Where a write names the stored file (its upload token). */
  uploadIn: string;
  directory: string;
  /** The object is the file (an image attachment): without it the object is left out, else the field empty. */
  objectIsFile: boolean;
}

/** The fields of a model naming stored files, from the registry: image fields and `mediaFile` fields. */
export function carriedFileFields(model: ModelDefinition): CarriedFileField[] {
  const fields: CarriedFileField[] = [];
  for (const f of model.fields) {
    if (f.image) fields.push({ shownIn: f.name, uploadIn: f.name, directory: f.image.directory, objectIsFile: false });
    else if (f.mediaFile)
      fields.push({
        shownIn: f.mediaFile.shownIn,
        uploadIn: f.mediaFile.uploadIn,
        directory: f.mediaFile.directory,
        objectIsFile: true,
      });
  }
  return fields;
}

/** One file of one object to bring over. */
interface FileToCarry {
  model: string;
  id: number;
  field: CarriedFileField;
  url: string;
  filename: string;
}

export interface CarryOptions {
  reader: MediaReader;
  store: ImageStore;
  /** Objects come without the files that cannot be carried (image fields empty, objects that are a file left out). */
  skipMissing?: boolean;
  /** Files read at once. */
  parallel?: number;
}

export interface CarriedFiles {
  /** model key → object id → what its write input gets (upload tokens by field). */
  inputs: Map<string, Map<number, Record<string, unknown>>>;
  /** model key → ids of objects left out: they are a file that could not be carried. */
  leftOut: Map<string, Set<number>>;
  /** Files that could not be carried (skipped), `model id field: reason`. */
  skipped: string[];
  /** Files stored and offered to the import's write. */
  offered: OfferedFile[];
}

/** Files that cannot be carried: the import is refused before it writes anything. */
export class MissingMediaError extends Error {
  constructor(readonly files: string[]) {
    super(
      `${files.length} media file(s) cannot be carried (nothing was written; --skip-missing-media imports without them, --media-dir reads them from a copy of NetBox's MEDIA_ROOT):\n` +
        files.map((f) => `  ${f}`).join('\n'),
    );
  }
}

/**
 * Reads, checks and stores the files the objects' file fields name, a few at a time.
 * On refusal the files stored so far are released (deleted: nothing names them).
 */
export async function carryFiles(
  objects: ReadonlyMap<ModelDefinition, ReadonlyArray<Record<string, unknown>>>,
  options: CarryOptions,
): Promise<CarriedFiles> {
  const files = filesToCarry(objects);
  const carried: CarriedFiles = { inputs: new Map(), leftOut: new Map(), skipped: [], offered: [] };
  const failed: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < files.length) {
      const file = files[next++];
      const label = `${file.model} ${file.id} ${file.field.shownIn}${file.url ? ` (${file.url})` : ''}`;
      try {
        if (file.url === '') throw new MediaUnreadableError('the source shows no file');
        const bytes = await options.reader.read(file.url, options.store.maxBytes);
        const token = await options.store.offer(bytes, file.field.directory, file.filename);
        carried.offered.push({ token, directory: file.field.directory });
        const byId = carried.inputs.get(file.model) ?? new Map<number, Record<string, unknown>>();
        carried.inputs.set(file.model, byId);
        byId.set(file.id, { ...byId.get(file.id), [file.field.uploadIn]: token });
      } catch (error) {
        if (!(error instanceof MediaUnreadableError || error instanceof ValidationError)) throw error;
        failed.push(`${label}: ${reasonOf(error)}`);
        if (file.field.objectIsFile) {
          const ids = carried.leftOut.get(file.model) ?? new Set<number>();
          carried.leftOut.set(file.model, ids);
          ids.add(file.id);
        }
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(options.parallel ?? 4, files.length) }, worker));
  } catch (error) {
    await options.store.release(carried.offered, error);
    throw error;
  }
  failed.sort();
  if (failed.length > 0 && !options.skipMissing) {
    const refusal = new MissingMediaError(failed);
    await options.store.release(carried.offered, refusal);
    throw refusal;
  }
  carried.skipped = failed;
  return carried;
}

function filesToCarry(objects: ReadonlyMap<ModelDefinition, ReadonlyArray<Record<string, unknown>>>): FileToCarry[] {
  const files: FileToCarry[] = [];
  for (const [model, list] of objects) {
    const fields = carriedFileFields(model);
    if (fields.length === 0) continue;
    for (const object of list) {
      for (const field of fields) {
        const url = object[field.shownIn];
        if (typeof url !== 'string' || url === '') {
          // An object that is a file shown without one cannot be written: it is refused as any file that cannot be read.
          if (field.objectIsFile) files.push({ model: model.key, id: Number(object.id), field, url: '', filename: '' });
          continue;
        }
        files.push({ model: model.key, id: Number(object.id), field, url, filename: filenameOf(object, field, url) });
      }
    }
  }
  return files;
}

/**
 * The name the file was uploaded under: the last part of its URL, or for an unnamed
 * object that is a file, its display (which shows that name, in NetBox as here).
 */
function filenameOf(object: Record<string, unknown>, field: CarriedFileField, url: string): string {
  if (field.objectIsFile && object.name === '' && typeof object.display === 'string' && object.display !== '')
    return object.display;
  const last = new URL(url, 'http://source.invalid/').pathname.split('/').pop() ?? '';
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

function reasonOf(error: MediaUnreadableError | ValidationError): string {
  if (error instanceof ValidationError)
    return Object.values(error.body as Record<string, string[]>)
      .flat()
      .join(' ');
  return error.message;
}
