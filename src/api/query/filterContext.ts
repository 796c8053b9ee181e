/** What compiling one request's filters carries along: the model, the read access, the errors found so far. */
import type { FieldErrors } from '../../errors/fieldErrors.js';
import type { ModelDefinition } from '../../models/modelDefinition.js';
import type { ModelRegistry } from '../../models/registry.js';
import type { FindOptions, Query, ReadDocument } from '../../projections/ReadStore.js';
import { MAX_TEXT_LOOKUP } from './textMatch.js';

/** The read access the compiler needs (a ReadStore satisfies it). */
export interface FilterReader {
  find(collection: string, query: Query, options?: FindOptions): Promise<ReadDocument[]>;
}

export interface FilterContext {
  registry: ModelRegistry;
  definition: ModelDefinition;
  reader: FilterReader;
  errors: FieldErrors;
  requesterId: number | null;
}

/** Reports an invalid value under its parameter (each message once): all are answered together as one 400. */
export function report(ctx: FilterContext, param: string, message: string): void {
  const list = (ctx.errors[param] ??= []);
  if (!list.includes(message)) list.push(message);
}

/** The ids of the documents matching `query`. */
export async function ids(reader: FilterReader, model: string, query: Query, limit?: number): Promise<number[]> {
  const docs = await reader.find(model, query, limit === undefined ? {} : { limit });
  return docs.map((d) => d.id);
}

export function tooLong(value: string): string {
  return `Ensure this value has at most ${MAX_TEXT_LOOKUP} characters (it has ${value.length}).`;
}
