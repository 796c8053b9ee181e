/**
 * The NetBox 3.4 REST API reference as the model generator reads it (only what it reads).
 * The folder defaults to ../../shared/reference/netbox-3.4/ relative to this script;
 * NETBOX_REFERENCE_DIR overrides it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export interface RefField {
  name: string;
  type: string;
  [key: string]: Json | undefined;
}

export interface RefModel {
  model: string;
  path: string;
  verbose_name: string;
  verbose_name_plural: string;
  display?: string;
  display_format?: string;
  fields: RefField[];
  brief_fields: string[] | null;
  filters?: Record<string, Json>;
  ordering?: string[];
  ordering_params?: string[];
  unique_together?: string[][];
  unique_constraints?: RefUnique[];
}

export interface RefUnique {
  fields: string[];
  condition?: string;
  message?: string;
  case_insensitive?: string[];
}

const REFERENCE_DIR =
  process.env.NETBOX_REFERENCE_DIR ?? fileURLToPath(new URL('../../shared/reference/netbox-3.4/', import.meta.url));

/** Every model of the reference by '<app_label>.<model>'. */
export function loadReference(): Map<string, RefModel> {
  const models = new Map<string, RefModel>();
  for (const file of readdirSync(REFERENCE_DIR)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    const data = JSON.parse(readFileSync(path.join(REFERENCE_DIR, file), 'utf8')) as { models?: RefModel[] };
    for (const model of data.models ?? []) {
      if (typeof model.model === 'string' && Array.isArray(model.fields)) models.set(model.model, model);
    }
  }
  return models;
}

/** NetBox's nested groups: a self-referencing parent plus a rendered tree depth. */
export function isTree(model: RefModel): boolean {
  return (
    model.fields.some((f) => f.name === 'parent' && f.type === 'fk' && f.target === model.model) &&
    model.fields.some((f) => f.name === '_depth')
  );
}
