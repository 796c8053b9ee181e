import { contentTypeDisplay } from './contentTypeDisplay.js';
import type { ModelRegistry } from './registry.js';

/** One content type: its numeric id, '<app_label>.<model>' key and the two halves of it. */
export interface ContentTypeEntry {
  id: number;
  key: string;
  app_label: string;
  model: string;
}

/**
 * Content types the API names that are not registry models (the change log, the
 * caller's preferences, reports, scripts, content types themselves), with their verbose
 * names. Numbered from NON_MODEL_FIRST_ID in this order, so that appending models to the
 * registry never renumbers them; append new ones at the end.
 */
const NON_MODEL_TYPES: Array<[key: string, verboseName: string]> = [
  ['contenttypes.contenttype', 'content type'],
  ['extras.objectchange', 'object change'],
  ['extras.report', 'report'],
  ['extras.script', 'script'],
  ['users.userconfig', 'user preferences'],
];
const NON_MODEL_FIRST_ID = 10_001;

/**
 * Content types as object changes name them: '<app_label>.<model>' (the key), a
 * display form 'app_label | verbose name' (NetBox's ContentType string, e.g.
 * 'dcim | site'), and a numeric id for `changed_object_type_id` and every `*_type_id`
 * filter: a model's 1-based place in the registry (stable while models are only ever
 * added at the end); the few non-model types come after, from their own block.
 */
export class ContentTypes {
  private readonly ids = new Map<string, number>();
  private readonly keys = new Map<number, string>();
  private readonly verboseNames = new Map<string, string>();

  constructor(private readonly registry: ModelRegistry) {
    const add = (key: string, id: number) => {
      this.ids.set(key, id);
      this.keys.set(id, key);
    };
    registry.all().forEach((definition, i) => add(definition.key, i + 1));
    NON_MODEL_TYPES.forEach(([key, verboseName], i) => {
      if (this.ids.has(key)) return;
      add(key, NON_MODEL_FIRST_ID + i);
      this.verboseNames.set(key, verboseName);
    });
  }

  id(key: string): number | null {
    return this.ids.get(key) ?? null;
  }

  key(id: number): string | null {
    return this.keys.get(id) ?? null;
  }

  display(key: string): string {
    const verbose = this.verboseNames.get(key);
    return verbose ? `${key.split('.')[0]} | ${verbose}` : contentTypeDisplay(key, this.registry);
  }

  /** Every content type, by id. */
  all(): ContentTypeEntry[] {
    return [...this.keys.entries()]
      .sort(([a], [b]) => a - b)
      .map(([id, key]) => {
        const [app_label = '', model = ''] = key.split('.');
        return { id, key, app_label, model };
      });
  }
}
