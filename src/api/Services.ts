import type { AuditService } from '../audit/AuditService.js';
import type { AuthService } from '../auth/AuthService.js';
import type { Branches } from '../branches/Branches.js';
import type { CommandEnvironment } from '../commands/decideObject.js';
import type { WriteCoordinator } from '../commands/WriteCoordinator.js';
import type { Config } from '../config.js';
import type { EventLog } from '../events/EventLog.js';
import type { ModelRegistry } from '../models/registry.js';
import type { Projector } from '../projections/Projector.js';
import type { ReadStore } from '../projections/ReadStore.js';
import type { Readiness } from '../replicas/Readiness.js';
import type { TemplateRenderer } from '../templates/TemplateRenderer.js';
import type { AnswerCache } from './answerCache/AnswerCache.js';
import type { ListQueryCompiler } from './query/ListQueryCompiler.js';
import type { RenderCache } from './renderCache/RenderCache.js';
import type { Serializer } from './Serializer.js';

export type Logger = (entry: Record<string, unknown>) => void;

/** Everything the HTTP layer talks to, assembled by the composition root. */
export interface Services {
  config: Config;
  registry: ModelRegistry;
  log: EventLog;
  store: ReadStore;
  projector: Projector;
  coordinator: WriteCoordinator;
  serializer: Serializer;
  /** Whole answers to plain GETs, sent again while the read models stay put (absent: none). */
  answers?: AnswerCache;
  /** Rendered objects kept as JSON text (absent: every read renders). */
  renderCache?: RenderCache;
  queries: ListQueryCompiler;
  /** User-written templates (export templates) rendered in a sandbox, off the event loop. */
  templates: TemplateRenderer;
  commands: CommandEnvironment;
  logger: Logger;
  /** Authentication (tokens, sessions) and permission sets; built and stopped with the ledger. */
  auth: AuthService;
  /** The audit side, answered from the event log (object changes, as_of, history, revert). */
  audit?: AuditService;
  /** Records kept beside the read models that detail views read by name (the webhook delivery worker's). */
  sources?: ReadonlyMap<string, unknown>;
  /** Catching up after start, ready, or lagging (/readyz); absent: ready once serving, as before. */
  readiness?: Readiness;
  /** The open branches (README: Branches); absent: the branching API answers 404. */
  branches?: Branches;
}
