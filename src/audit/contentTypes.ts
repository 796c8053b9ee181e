import type { ModelRegistry } from '../models/registry.js';

/**
 * Content types as object changes name them: '<app_label>.<model>' (the key), a
 * display form 'app_label | verbose name' (NetBox's ContentType string, e.g.
 * 'dcim | site'), and a numeric id for `changed_object_type_id`: the model's
 * 1-based place in the registry (stable while models are only ever added at the end).
 */
export class ContentTypes {
  private readonly ids = new Map<string, number>();
  private readonly keys = new Map<number, string>();

  constructor(private readonly registry: ModelRegistry) {
    registry.all().forEach((definition, i) => {
      this.ids.set(definition.key, i + 1);
      this.keys.set(i + 1, definition.key);
    });
  }

  id(key: string): number | null {
    return this.ids.get(key) ?? null;
  }

  key(id: number): string | null {
    return this.keys.get(id) ?? null;
  }

  display(key: string): string {
    const [app = key, model = key] = key.split('.');
    const verbose = this.registry.tryGet(key)?.verboseName ?? model;
    return `${app} | ${verbose}`;
  }
}
