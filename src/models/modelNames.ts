/**
 * The names of a model that its key and list URL give (NetBox's app label and model name;
 * plural verbose names add an 's' unless said otherwise).
 */
import type { ModelDefinition } from './modelDefinition.js';

export type ModelNames = Pick<ModelDefinition, 'key' | 'app' | 'model' | 'path' | 'verboseName' | 'verboseNamePlural'>;

/** '<app>.<model>' key, URL segment and verbose name: the URL app is the key's app. */
export function modelNames(key: string, path: string, verboseName: string): ModelNames {
  const [app, model] = key.split('.');
  return { key, app, model, path, verboseName, verboseNamePlural: `${verboseName}s` };
}
