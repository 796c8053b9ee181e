/**
 * An object as a NetBox API renders it (complete form: nested relations, choices as
 * {value, label}) turned into what its model accepts on write (relations by id,
 * choices bare), split into what is written on creation and what waits for the second
 * pass (references held back to break a cycle, custom fields that name objects).
 */
import type { ImportedObject } from '../commands/importObjects.js';
import { writableFields } from '../commands/writeSchema.js';
import type { FieldDefinition } from '../models/fieldDefinition.js';
import type { ModelDefinition } from '../models/modelDefinition.js';

export interface SplitObject {
  create: ImportedObject;
  /** Null when nothing waits for the second pass. */
  complete: ImportedObject | null;
}

export interface WriteInputOptions {
  /** Fields held back for the second pass. */
  deferred?: readonly string[];
  /** Token keys the operator supplied, by token id (API tokens are not readable). */
  tokenKeys?: ReadonlyMap<number, string>;
  /** When the source's change log saw each object created, by id. */
  creationTimes?: ReadonlyMap<number, string>;
}

export function writeInputOf(
  definition: ModelDefinition,
  source: Record<string, unknown>,
  options: WriteInputOptions = {},
): SplitObject {
  const id = Number(source.id);
  const create: Record<string, unknown> = {};
  const later: Record<string, unknown> = {};
  const deferred = new Set(options.deferred ?? []);
  for (const field of writableFields(definition)) {
    if (field.image || field.mediaFile || field.secret === 'password') continue;
    if (field.secret === 'token_key') {
      const key = options.tokenKeys?.get(id);
      if (key) create[field.name] = key;
      continue;
    }
    if (!Object.hasOwn(source, field.name)) continue;
    const value = writeValue(field, source[field.name]);
    // Rendered null where nothing is set, refused as a written value: left to its default.
    if (value === null && !field.nullable) continue;
    // A blank choice is stored where no choice was made, but not accepted as a written choice.
    if (value === '' && field.type === 'choice' && !field.choices?.some((c) => c.value === '')) continue;
    if (field.type === 'custom_fields' && isObject(value)) {
      const [plain, references] = splitCustomFields(value);
      create[field.name] = plain;
      if (Object.keys(references).length > 0) later[field.name] = references;
    } else if (deferred.has(field.name)) {
      if (value !== null && value !== undefined) later[field.name] = value;
    } else {
      create[field.name] = value;
    }
  }
  const times = {
    created: createdTime(source.created, options.creationTimes?.get(id)),
    lastUpdated: timeOf(source.last_updated),
  };
  return {
    create: { id, input: create, ...times },
    complete: Object.keys(later).length > 0 ? { id, input: later, ...times } : null,
  };
}

function writeValue(field: FieldDefinition, value: unknown): unknown {
  if (value === null || value === undefined) return value;
  switch (field.type) {
    case 'choice':
      return isObject(value) && Object.hasOwn(value, 'value') ? value.value : value;
    case 'fk':
      return referenceId(value);
    case 'm2m':
    case 'tags':
      return Array.isArray(value) ? value.map(referenceId) : value;
    case 'generic_list':
      if (!Array.isArray(value)) return value;
      return value.map((item) =>
        isObject(item) ? { object_type: item.object_type, object_id: item.object_id } : item,
      );
    default:
      return value;
  }
}

/** A nested object becomes its id; an id or a slug stays as it is. */
function referenceId(value: unknown): unknown {
  return isObject(value) && typeof value.id === 'number' ? value.id : value;
}

/**
 * Custom field values as written: those of object-type fields (rendered nested, with
 * their url) become ids and wait for the second pass, as their objects may come later.
 */
function splitCustomFields(values: Record<string, unknown>): [Record<string, unknown>, Record<string, unknown>] {
  const plain: Record<string, unknown> = {};
  const references: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(values)) {
    if (isNestedObject(value)) references[name] = value.id;
    else if (Array.isArray(value) && value.length > 0 && value.every(isNestedObject))
      references[name] = value.map((v) => v.id);
    else plain[name] = value;
  }
  return [plain, references];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function isNestedObject(value: unknown): value is { id: number; url: string } {
  return isObject(value) && typeof value.id === 'number' && typeof value.url === 'string';
}

/**
 * A source that shows `created` as a date only (a netledger, as its specification has it)
 * gets the time of day back from the change that created the object, when it was that day:
 * a display made of it (a journal entry's) then reads as the source's does.
 */
function createdTime(created: unknown, creationChange: string | undefined): string | null {
  const time = timeOf(created);
  if (time && /^\d{4}-\d{2}-\d{2}$/.test(time) && creationChange?.startsWith(time)) return creationChange;
  return time;
}

function timeOf(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}
