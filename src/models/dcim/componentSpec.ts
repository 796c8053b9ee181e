/**
 * What the two component builders (deviceComponentModel, componentTemplateModel) are told
 * of a model: its names, its own fields by where they go among the shared ones, its own
 * filters and rule; anything else a ModelDefinition says replaces a default.
 */
import type { FieldErrors } from '../../errors/fieldErrors.js';
import type { FieldDefinition } from '../fieldDefinition.js';
import type { FilterSpec } from '../filterTypes.js';
import type { ModelDefinition } from '../modelDefinition.js';
import type { ModelHooks } from '../modelHooks.js';

/** A rule of the model's own, checked after the ones its whole family has. */
export type ComponentRule = (
  ...args: Parameters<NonNullable<ModelHooks['validate']>>
) => FieldErrors | void | undefined | Promise<FieldErrors | void | undefined>;

export interface ComponentSpec extends Partial<
  Omit<ModelDefinition, 'key' | 'path' | 'verboseName' | 'fields' | 'hooks'>
> {
  /** '<app>.<model>'. */
  key: string;
  /** URL segment of the list view, e.g. 'console-ports'. */
  path: string;
  verboseName: string;
  /** Fields of its own between its owner (device, device type; and module) and the name. */
  beforeName?: FieldDefinition[];
  /** Fields of its own between the label and the description, in serializer order. */
  fields?: FieldDefinition[];
  /** Fields of its own after the description. */
  afterDescription?: FieldDefinition[];
  /** Fields rendered last, after the change-logged ones (a template's timestamps). */
  last?: FieldDefinition[];
  /** Filters of its own (false drops a shared or derived one). */
  filters?: Record<string, FilterSpec>;
  /** Its own rule, checked after the family's (stays on its owner; cabled, not also marked connected). */
  rule?: ComponentRule;
  /** Hooks replacing the shared ones (display, natural name order, rules, related object). */
  hooks?: ModelHooks;
}
