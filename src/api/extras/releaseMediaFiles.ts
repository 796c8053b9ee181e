import type { ChangeEvent } from '../../events/ChangeEvent.js';
import { isOffered } from '../../models/extras/imageUploads.js';
import { filesReleasedBy, type MediaFileField, mediaFileFields } from '../../models/imageFields.js';
import type { ModelDefinition } from '../../models/modelDefinition.js';
import type { ModelRegistry } from '../../models/registry.js';
import type { ReadStore } from '../../projections/ReadStore.js';
import type { Logger } from '../Services.js';
import { removeImageFile } from './imageFiles.js';

export interface MediaFileOwners {
  dataDir: string;
  registry: ModelRegistry;
  store: ReadStore;
  logger: Logger;
}

export interface StoredFile {
  directory: string;
  file: string;
}

const fieldsByModel = new WeakMap<ModelDefinition, MediaFileField[]>();

function fieldsOf(definition: ModelDefinition): MediaFileField[] {
  let fields = fieldsByModel.get(definition);
  if (!fields) fieldsByModel.set(definition, (fields = mediaFileFields(definition)));
  return fields;
}

/** The files a request's changes stopped naming: replaced, cleared, or named by an object deleted. */
export function filesReleasedByEvents(registry: ModelRegistry, events: ChangeEvent[]): StoredFile[] {
  const released: StoredFile[] = [];
  for (const event of events) {
    const definition = registry.tryGet(event.objectType);
    const fields = definition ? fieldsOf(definition) : [];
    if (fields.length) released.push(...filesReleasedBy(fields, event.prechange, event.postchange));
  }
  return released;
}

/**
 * Deletes each of the files that nothing names any more: no object of the read models
 * and no upload still in flight (the same bytes may be named by other objects, or being
 * uploaded again right now). Called only once the change that stopped naming them is
 * durable and in the read models (WriteCoordinator.onCommitted), or for an upload whose
 * write was refused: a crash before the deletion leaves an orphan file behind, never an
 * object naming a missing file. A failure to delete is logged, not raised: the write
 * that released the file has succeeded.
 */
export async function deleteUnnamedFiles(owners: MediaFileOwners, files: StoredFile[]): Promise<void> {
  const seen = new Set<string>();
  for (const { directory, file } of files) {
    const key = `${directory}/${file}`;
    if (seen.has(key)) continue;
    seen.add(key);
    try {
      await removeImageFile(owners.dataDir, directory, file, () => isNamed(owners, directory, file));
    } catch (error) {
      const reason = (error as Error).message;
      owners.logger({ level: 'warn', msg: `media file ${key} no longer named but not deleted: ${reason}` });
    }
  }
}

async function isNamed(owners: MediaFileOwners, directory: string, file: string): Promise<boolean> {
  if (isOffered(file)) return true;
  for (const definition of owners.registry.all()) {
    for (const field of fieldsOf(definition)) {
      if (field.directory !== directory) continue;
      if ((await owners.store.find(definition.key, { [field.name]: file }, { limit: 1 })).length) return true;
    }
  }
  return false;
}

/** The writer's onCommitted hook: the files each committed request stopped naming are deleted. */
export function mediaFileReleaser(owners: MediaFileOwners): (events: ChangeEvent[]) => Promise<void> {
  return (events) => deleteUnnamedFiles(owners, filesReleasedByEvents(owners.registry, events));
}
