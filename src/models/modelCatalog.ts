/**
 * The registered models, as the parts of a model's definition see them. A model is made of
 * fields, hooks and follow-ups, and those are given the model and the catalog of models in
 * turn (a field's `computeMany`, a validation's context, a follow-up's look-up of templates).
 * So that the parts need not import the file that imports them, the model's own file
 * (modelDefinition.ts) names the model here by declaration merging, as koa's DefaultState is
 * named by the app: `declare module './modelCatalog.js' { interface CatalogedModel { model: … } }`.
 */
// Filled in by modelDefinition.ts; empty here on purpose.
export interface CatalogedModel {}

/** A model's definition (ModelDefinition), for the parts that make it up. */
export type CatalogModel = CatalogedModel extends { model: infer M } ? M : never;

/** The models a hook may consult (e.g. which template models instantiate which components). */
export interface ModelCatalog {
  all(): CatalogModel[];
  tryGet(key: string): CatalogModel | undefined;
}
