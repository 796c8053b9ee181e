import path from 'node:path';

import type { SecretKeeper } from '../auth/secrets.js';
import { WebhookHops } from '../auth/webhookHop.js';
import type { Config } from '../config.js';
import type { EventLog } from '../events/EventLog.js';
import { ownAddressGuard } from '../models/extras/webhookOwnAddress.js';
import type { ModelRegistry } from '../models/registry.js';
import type { Projector } from '../projections/Projector.js';
import type { ReadStore } from '../projections/ReadStore.js';
import type { TemplateRenderer } from '../templates/TemplateRenderer.js';
import { IsolatedConditions } from './ConditionsEvaluator.js';
import { type CompleteRenderer, payloadRenderer } from './payloadRenderer.js';
import { sendRequest } from './sendRequest.js';
import { isStoreUnavailable, WebhookWorker } from './WebhookWorker.js';

export interface WebhookWorkerParts {
  config: Config;
  registry: ModelRegistry;
  log: EventLog;
  store: ReadStore;
  projector: Projector;
  secrets: SecretKeeper;
  serializer: CompleteRenderer;
  templates: TemplateRenderer;
  /** The service's own address: the `url` fields of payloads point there, and deliveries never go there. */
  baseUrl: string;
  logger: (entry: Record<string, unknown>) => void;
  /** The worker stopped following the log, or the read store is down (see WebhookWorkerOptions.onFailed). */
  onFailed: (error: Error) => void;
}

/** The delivery worker as the service runs it: state under DATA_DIR/webhooks/, settings from the configuration. */
export async function startWebhookWorker(parts: WebhookWorkerParts): Promise<WebhookWorker> {
  const { config, registry, log, store, projector, secrets, serializer, templates, baseUrl, logger, onFailed } = parts;
  const rendered = payloadRenderer(registry, serializer, baseUrl, (sealed) => secrets.unsealSecret(sealed));
  // A payload reads related objects from the read models: a failure that heals by itself
  // (MongoDB's election, a query past its time limit) is retried as the projector retries
  // it. One that outlasts the retry budget (a RetriesExhaustedError: the store is down)
  // ends delivery and restarts the service, which renders that change again, and so does
  // one the store names its own (refused credentials: not transient, never the data's);
  // any other rendering failure is recorded as that change's failed delivery (see WebhookWorker).
  const retrying = store.retrying?.bind(store);
  const hops = new WebhookHops(config.secretKey);
  const storeFailure = (error: unknown) => store.isStoreFailure?.(error) === true;
  const worker = new WebhookWorker({
    log,
    stateFile: path.join(config.dataDir, 'webhooks', 'deliveries.json'),
    templates,
    // Rule sets anyone who may add a webhook writes, run on values any writer controls: off the event loop.
    conditions: new IsolatedConditions(config.templates),
    renderer: retrying ? { ...rendered, data: (event) => retrying(() => rendered.data(event)) } : rendered,
    initial: async () => {
      // The read models are at the projector's position: start there, with the webhooks they hold.
      const position = projector.position;
      const webhooks = await store.find('extras.webhook', {});
      return { position, webhooks };
    },
    retryBaseMs: config.webhooks.retryBaseMs,
    retryMaxMs: config.webhooks.retryMaxMs,
    maxAttempts: config.webhooks.maxAttempts,
    timeoutMs: config.webhooks.timeoutMs,
    send: sendRequest,
    maxDepth: config.webhooks.maxDepth,
    hopToken: (depth, deadline) => hops.token(depth, deadline),
    refuseAddress: ownAddressGuard({ host: config.host, port: Number(new URL(baseUrl).port || 80) }),
    logger,
    onFailed,
    storeUnavailable: (error) => isStoreUnavailable(error, storeFailure),
  });
  await worker.start();
  return worker;
}
