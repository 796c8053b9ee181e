import type { RenderMemo } from '../models/fieldDefinition.js';
import type { ModelDefinition } from '../models/modelDefinition.js';
import type { ReadDocument } from '../projections/ReadStore.js';

/**
 * complete: every field (the detail and list views); brief: the model's brief fields
 * (?brief=1); nested: the brief form as embedded in another object (no annotated counts).
 */
export type Representation = 'complete' | 'brief' | 'nested';

export interface RenderOptions {
  baseUrl: string;
  /** Leave out annotated counts (NetBox does not compute them for a create response). */
  omitAnnotated?: boolean;
  /** Secrets to show once, by object id (a new token's key). */
  revealed?: Map<number, Record<string, unknown>>;
  /** Only these top-level fields (?fields=a,b). */
  only?: Set<string>;
  /** Leave out these top-level fields (?exclude=config_context). */
  exclude?: Set<string>;
  /** Set by the top-level render for everything below it. */
  memo?: RenderMemo;
}

/** Objects nest at most this deep; deeper references are left out. */
export const MAX_NESTING = 4;

/** Renders a page of one model's documents in a form (the Serializer's render). */
export type RenderPage = (
  definition: ModelDefinition,
  docs: ReadDocument[],
  representation: Representation,
  options: RenderOptions,
  depth: number,
) => Promise<Record<string, unknown>[]>;
