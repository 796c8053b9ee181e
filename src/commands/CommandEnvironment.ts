import type { FieldErrors } from '../errors/fieldErrors.js';
import type { DecidedChange } from '../models/compositeWrites.js';
import type { LookupView } from '../models/lookupView.js';
import type { ModelDefinition } from '../models/modelDefinition.js';
import type { ModelSettings } from '../models/modelHooks.js';
import type { ModelRegistry } from '../models/registry.js';
import type { PatternChecker } from '../models/values/patternChecks.js';
import type { CommandSecrets } from './CommandSecrets.js';
import type { WriteTransaction } from './WriteCoordinator.js';

/** What every write decision is given besides the request: the registry, the secrets port and the settings. */
export interface CommandEnvironment {
  registry: ModelRegistry;
  secrets: CommandSecrets;
  settings: ModelSettings;
  /**
   * Runs the further changes a model's `followUps` hook declares for an object just recorded
   * (`runFollowUps` of followUps.ts). Given here rather than imported by the recording step:
   * follow-ups create and update objects, which record and so run follow-ups again.
   */
  followUps: FollowUpRunner;
  /**
   * Where values are matched against stored patterns (custom fields' validation_regex),
   * inline or off the event loop by their cost; absent: the shared checker at the default limits.
   */
  patterns?: PatternChecker;
}

export type FollowUpRunner = (
  env: CommandEnvironment,
  tx: WriteTransaction,
  definition: ModelDefinition,
  change: DecidedChange,
) => Promise<void>;

/** What a field resolver works with: the values sent, their resolved forms so far, the errors so far. */
export interface RelationContext {
  env: CommandEnvironment;
  view: LookupView;
  definition: ModelDefinition;
  sent: Record<string, unknown>;
  resolved: Record<string, unknown>;
  errors: FieldErrors;
}
