import type { ModelRegistry } from '../models/registry.js';
import type { FieldErrors, LookupView, ModelDefinition, ModelSettings } from '../models/types.js';
import type { CommandSecrets } from './CommandSecrets.js';

/** What every write decision is given besides the request: the registry, the secrets port and the settings. */
export interface CommandEnvironment {
  registry: ModelRegistry;
  secrets: CommandSecrets;
  settings: ModelSettings;
}

/** What a field resolver works with: the values sent, their resolved forms so far, the errors so far. */
export interface RelationContext {
  env: CommandEnvironment;
  view: LookupView;
  definition: ModelDefinition;
  sent: Record<string, unknown>;
  resolved: Record<string, unknown>;
  errors: FieldErrors;
}
