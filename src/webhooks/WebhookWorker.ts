import { WEBHOOK_HOP_HEADER } from '../auth/webhookHop.js';
import { type ChangeEvent, onMain } from '../events/ChangeEvent.js';
import type { EventLog, LogCursor, Subscription } from '../events/EventLog.js';
import { asResumePoint } from '../events/resumePoint.js';
import type { WebhookDelivery, WebhookDeliveryRecords } from '../models/extras/webhookDeliveriesView.js';
import { ReadStoreUnavailableError } from '../projections/ReadStoreUnavailableError.js';
import { RetriesExhaustedError } from '../projections/retryTransient.js';
import { TemplateError } from '../templates/TemplateError.js';
import type { TemplateRenderer } from '../templates/TemplateRenderer.js';
import { type ConditionsEvaluator, inlineConditions } from './ConditionsEvaluator.js';
import { type DeliveryState, loadDeliveryState, type PendingDelivery, saveDeliveryState } from './deliveryState.js';
import { EVENT_NAMES, type WebhookContext, webhookContext } from './payload.js';
import { exhausted, retryDelay } from './retrySchedule.js';
import type { TransportOptions, TransportResult } from './sendRequest.js';
import { type WebhookRequest, webhookRequest } from './webhookRequest.js';

const WEBHOOK = 'extras.webhook';
const FLAGS = { create: 'type_create', update: 'type_update', delete: 'type_delete' } as const;
const SAVE_DELAY_MS = 250;
/**
 * When only the position moved (changes no webhook matched), saving can wait longer: a
 * crash then makes the worker read those changes again, which queues nothing. Saving the
 * state four times a second under steady writes cost an fsync each, beside the log's own.
 */
const POSITION_SAVE_DELAY_MS = 10_000;
/** How long a hop token is valid when attempts have no deadline (WEBHOOK_TIMEOUT=0). */
const HOP_TOKEN_WITHOUT_DEADLINE_MS = 10 * 60_000;

/** What the worker needs rendered by the layers that know the API's shapes. */
export interface PayloadRenderer {
  /** The changed object's API form (complete), as the event left it (before a delete). */
  data(event: ChangeEvent): Promise<Record<string, unknown>>;
  /** The event's stored forms without secrets or internal keys (NetBox's snapshots). */
  snapshots(event: ChangeEvent): WebhookContext['snapshots'];
  /** A stored webhook's signing key in clear ('' for none). */
  secret(webhook: Record<string, unknown>): string;
}

export interface WebhookWorkerOptions {
  log: EventLog;
  /** Where the worker's state is kept (under DATA_DIR). */
  stateFile: string;
  renderer: PayloadRenderer;
  /** Renders the webhooks' Jinja2 parts (URL, headers, body template) in a sandbox. */
  templates: TemplateRenderer;
  /** Evaluates the webhooks' conditions (the service: in a process of their own); closed by stop(). Default: inline. */
  conditions?: ConditionsEvaluator;
  /** On a first start: the webhooks as the read models hold them, and the position they are at. */
  initial: () => Promise<{ position: number; webhooks: Array<Record<string, unknown>> }>;
  retryBaseMs: number;
  retryMaxMs: number;
  /** Attempts before a delivery is given up (0: never). */
  maxAttempts: number;
  /** The deadline of one whole attempt (connect, send, the whole answer). */
  timeoutMs: number;
  send: (request: WebhookRequest, options: TransportOptions) => Promise<TransportResult>;
  /**
   * Changes a webhook delivery requested (ChangeEvent.webhookDepth) at this depth or deeper
   * fire no webhook: each is recorded as a failed delivery instead, so a receiver that
   * writes to the service again (itself, or through a proxy) cannot multiply changes
   * without end. Default 1: only the changes clients make are delivered.
   */
  maxDepth?: number;
  /** The signed hop token each request carries (WEBHOOK_HOP_HEADER): its depth, valid until the deadline (ms). */
  hopToken?: (depth: number, deadline: number) => string;
  /** Why an address must not be called (the service's own), or null; see TransportOptions. */
  refuseAddress?: (address: string, port: number) => string | null;
  logger: (entry: Record<string, unknown>) => void;
  /** Finished deliveries kept per webhook (the oldest are forgotten). */
  historyLimit?: number;
  /**
   * Called once if the worker stops following the log (its subscription failed after the
   * catch-up, or a payload could not be rendered because the read store is down, see
   * `storeUnavailable`): no change is dispatched any more. The service raises its fatal
   * signal, so the process restarts and the worker resumes from its saved position,
   * rendering that change again. Default: logged.
   */
  onFailed?: (error: Error) => void;
  /**
   * Whether a payload's rendering failed because the read store is down (transient
   * failures that outlasted the store's retry budget): then the worker stops (onFailed)
   * before that change, as nothing is lost and a restart retries. Any other rendering
   * failure (a serializer bug on an old event, a read error that would recur) is the
   * change's own: recorded as a failed delivery for each webhook it was due to, with an
   * error logged, and the worker carries on, so that one change cannot keep the process in
   * a crash loop. Default: `isStoreUnavailable`.
   */
  storeUnavailable?: (error: unknown) => boolean;
  now?: () => Date;
}

/**
 * Whether an error (or one it was caused by) says the read store is down: its retries ran
 * out (RetriesExhaustedError, thrown by ReadStore.retrying), it answered unavailable, or
 * the store names it its own failure (`storeFailure`: ReadStore.isStoreFailure, e.g.
 * MongoDB refusing credentials, which is not transient and so not retried).
 */
export function isStoreUnavailable(error: unknown, storeFailure: (error: unknown) => boolean = () => false): boolean {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 8; cause = cause.cause, depth++) {
    if (cause instanceof RetriesExhaustedError || cause instanceof ReadStoreUnavailableError || storeFailure(cause))
      return true;
  }
  return false;
}

/** What an event's deliveries are made from, rendered once for all its webhooks. */
interface Rendered {
  data: Record<string, unknown>;
  snapshots: WebhookContext['snapshots'];
}

/**
 * Delivers webhooks from the event log, beside the projector and outside the request
 * path: it follows the log from the position it saved, queues one delivery per matching
 * enabled webhook and change event (content type, action flag, conditions on the object's
 * API form), and sends each webhook's queue in log order, retrying a failed delivery with
 * a doubling delay (capped) before the next one. What it has queued is saved with the
 * position, so a restart (or a receiver down for hours) loses nothing; a delivery is
 * repeated only when the process ended between sending it and saving that it was sent.
 */
export class WebhookWorker implements WebhookDeliveryRecords {
  private state: DeliveryState = { version: 1, position: 0, webhooks: {}, pending: {}, finished: {} };
  private subscription: Subscription | null = null;
  private readonly sending = new Set<string>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly inFlight = new Set<Promise<void>>();
  private stopped = false;
  private saving: Promise<void> | null = null;
  private dirty = false;
  private lazySave: NodeJS.Timeout | null = null;
  private lazySaveDue = 0;
  private saveFailing = false;
  /** Ends the requests in flight when the service stops: they are sent again at the next start. */
  private readonly abort = new AbortController();
  private readonly now: () => Date;
  /** Resolvers waiting for a record change (tests and callers that wait for a delivery). */
  private readonly listeners = new Set<() => void>();
  private failure: Error | null = null;

  constructor(private readonly options: WebhookWorkerOptions) {
    this.now = options.now ?? (() => new Date());
  }

  async start(): Promise<void> {
    const saved = await loadDeliveryState(this.options.stateFile);
    if (saved) {
      this.state = saved;
      // A log restored from an older backup ends before the saved position: follow it from its end.
      this.state.position = Math.min(this.state.position, this.options.log.head());
    } else {
      const initial = await this.options.initial();
      this.state.position = initial.position;
      for (const webhook of initial.webhooks) this.state.webhooks[String(webhook.id)] = webhook;
      await this.save();
    }
    const resume = asResumePoint(this.state.resume);
    this.subscription = this.options.log.subscribe(
      this.state.position + 1,
      (events, cursor) => this.dispatch(events, cursor),
      resume && resume.position <= this.state.position ? resume : null,
    );
    // Delivery can end after the catch-up (the log's consumer gave up, a dispatch failed):
    // deliveries would stop with nobody told, as the projector's would.
    this.subscription.done?.catch((error: unknown) =>
      this.fail(error instanceof Error ? error : new Error(String(error))),
    );
    for (const id of Object.keys(this.state.pending)) this.pump(id);
  }

  /** Why the worker stopped following the log, or null while it follows it. */
  get failed(): Error | null {
    return this.failure;
  }

  private fail(error: Error): void {
    if (this.stopped || this.failure) return;
    this.failure = error;
    if (this.options.onFailed) this.options.onFailed(error);
    else
      this.options.logger({
        level: 'error',
        msg: `webhook deliveries stopped (the event log can no longer be followed, or the read store is down): ${error.message}`,
      });
  }

  /** The last log position dispatched. */
  get position(): number {
    return this.state.position;
  }

  deliveries(webhookId: number): WebhookDelivery[] {
    const key = String(webhookId);
    const pending = (this.state.pending[key] ?? []).map(({ context: _context, depth: _depth, ...record }) => record);
    return [...pending, ...(this.state.finished[key] ?? [])].sort((a, b) => b.position - a.position);
  }

  /** Resolves at the next change of any delivery record or of the position. */
  changed(): Promise<void> {
    return new Promise((resolve) => this.listeners.add(resolve));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.subscription?.stop();
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    if (this.lazySave) clearTimeout(this.lazySave);
    this.abort.abort();
    await Promise.allSettled([...this.inFlight]);
    await this.flush();
    await this.options.conditions?.close();
  }

  /* ------------------------------------------------------------ dispatch */

  private async dispatch(events: ChangeEvent[], cursor?: LogCursor): Promise<void> {
    const touched = new Set<string>();
    let recorded = false;
    for (const event of events) {
      if (event.position <= this.state.position) continue; // already dispatched before a restart
      if (!onMain(event)) continue; // webhooks fire for main's changes; a branch's fire at its merge
      if (event.objectType === WEBHOOK) this.track(event);
      const due = this.candidates(event);
      if (due.length > 0) {
        let rendered: Rendered;
        try {
          rendered = await this.render(event);
        } catch (error) {
          // The store down (or the worker stopping): the dispatch fails before this change,
          // the subscription ends and onFailed restarts the service, which renders it again.
          if (this.stopped || (this.options.storeUnavailable ?? isStoreUnavailable)(error)) throw error;
          this.notRendered(event, due, error as Error);
          recorded = true;
          this.state.position = event.position;
          continue;
        }
        const { matched, failed } = await this.matching(event, due, rendered.data);
        recorded ||= failed;
        const depth = event.webhookDepth ?? 0;
        if (depth >= (this.options.maxDepth ?? 1) && matched.length > 0) {
          this.tooDeep(event, matched, depth);
          recorded = true;
          matched.length = 0;
        }
        for (const id of matched) {
          // The queue is looked up here: a delivery finished meanwhile may have emptied and dropped it.
          (this.state.pending[id] ??= []).push(this.pending(event, rendered));
          touched.add(id);
        }
      }
      this.state.position = event.position;
    }
    const last = events.at(-1);
    if (cursor !== undefined && last && last.position <= this.state.position)
      this.state.resume = { position: last.position, cursor };
    this.markDirty();
    this.saveLater(
      touched.size > 0 || recorded || events.some((e) => e.objectType === WEBHOOK)
        ? SAVE_DELAY_MS
        : POSITION_SAVE_DELAY_MS,
    );
    for (const id of touched) this.pump(id);
  }

  /** Keeps the webhook table as of the dispatched position; a deleted webhook's deliveries go with it. */
  private track(event: ChangeEvent): void {
    const key = String(event.objectId);
    if (event.action === 'delete') {
      delete this.state.webhooks[key];
      delete this.state.pending[key];
      delete this.state.finished[key];
    } else {
      this.state.webhooks[key] = { ...event.postchange, id: event.objectId };
    }
  }

  /** The enabled webhooks watching this change's type and action, before their conditions. */
  private candidates(event: ChangeEvent): string[] {
    const ids: string[] = [];
    for (const [id, webhook] of Object.entries(this.state.webhooks)) {
      if (webhook.enabled === false || webhook[FLAGS[event.action]] !== true) continue;
      if (!Array.isArray(webhook.content_types) || !webhook.content_types.includes(event.objectType)) continue;
      ids.push(id);
    }
    return ids;
  }

  private async render(event: ChangeEvent): Promise<Rendered> {
    const data = await this.options.renderer.data(event);
    return { data, snapshots: this.options.renderer.snapshots(event) };
  }

  /**
   * A change whose payload could not be rendered, for a reason other than the store being
   * down: it would fail the same way at every restart, so it is recorded as a failed
   * delivery of each webhook it may have been due to (its conditions could not be
   * evaluated either) and logged, and the worker goes on with the next change.
   */
  private notRendered(event: ChangeEvent, ids: string[], error: Error): void {
    for (const id of ids) {
      this.failedUnsent(id, event, `payload not rendered: ${error.message}`);
      this.options.logger({
        level: 'error',
        msg: `webhook ${id}: change ${event.position} not delivered: its payload could not be rendered: ${error.message}`,
        webhook: Number(id),
        position: event.position,
        error: error.message,
      });
    }
  }

  /**
   * A change a chain of webhook deliveries requested, at the depth where the chain ends:
   * recorded as a failed delivery of each webhook it matched (never sent), and warned about.
   */
  private tooDeep(event: ChangeEvent, ids: string[], depth: number): void {
    const max = this.options.maxDepth ?? 1;
    const why =
      `not sent: the change was requested by a webhook delivery (depth ${depth}); ` +
      `changes at depth ${max} or deeper fire no webhook (WEBHOOK_MAX_DEPTH)`;
    for (const id of ids) this.failedUnsent(id, event, why);
    const msg = `webhooks ${ids.join(', ')}: change ${event.position} ${why}`;
    this.options.logger({ level: 'warn', msg, position: event.position });
  }

  /** Records a delivery of `event` to webhook `id` as failed without an attempt. */
  private failedUnsent(id: string, event: ChangeEvent, error: string): void {
    const finished = (this.state.finished[id] ??= []);
    finished.unshift({
      position: event.position,
      event_id: event.eventId,
      request_id: event.requestId,
      event: EVENT_NAMES[event.action],
      object_type: event.objectType,
      object_id: event.objectId,
      status: 'failed',
      attempts: 0,
      last_status_code: null,
      last_error: error,
      last_attempt: this.now().toISOString(),
      next_attempt: null,
    });
    finished.length = Math.min(finished.length, this.options.historyLimit ?? 1000);
  }

  /**
   * The candidates whose conditions the changed object meets. A rule set that could not be
   * evaluated (past a limit, nested past the stack) fails that webhook's delivery of this
   * change; one stored malformed is the webhook's own fault: skipped for this change.
   */
  private async matching(
    event: ChangeEvent,
    candidates: string[],
    data: Record<string, unknown>,
  ): Promise<{ matched: string[]; failed: boolean }> {
    const conditional = candidates.filter((id) => {
      const conditions = this.state.webhooks[id]?.conditions;
      return conditions !== null && conditions !== undefined;
    });
    const ruleSets = conditional.map((id) => this.state.webhooks[id]!.conditions);
    // The payload is rendered before: a failure to render it is no verdict on the conditions.
    const verdicts =
      ruleSets.length > 0 ? await (this.options.conditions ?? inlineConditions).verdicts(ruleSets, data) : [];
    const unmet = new Set<string>();
    let failed = false;
    for (const [i, id] of conditional.entries()) {
      const verdict = verdicts[i]!;
      if ('met' in verdict && verdict.met) continue;
      unmet.add(id);
      if ('invalid' in verdict)
        this.options.logger({ level: 'warn', msg: `webhook ${id}: conditions not evaluated: ${verdict.invalid}` });
      if ('failed' in verdict) {
        const why = `conditions not evaluated: ${verdict.failed}`;
        this.failedUnsent(id, event, why);
        failed = true;
        this.options.logger({ level: 'error', msg: `webhook ${id}: change ${event.position} not delivered: ${why}` });
      }
    }
    return { matched: candidates.filter((id) => this.state.webhooks[id] && !unmet.has(id)), failed };
  }

  private pending(event: ChangeEvent, rendered: Rendered): PendingDelivery {
    const context = webhookContext(event, rendered.data, rendered.snapshots);
    return {
      position: event.position,
      event_id: event.eventId,
      request_id: event.requestId,
      event: context.event,
      object_type: event.objectType,
      object_id: event.objectId,
      status: 'pending',
      attempts: 0,
      last_status_code: null,
      last_error: null,
      last_attempt: null,
      next_attempt: null,
      context,
      ...(event.webhookDepth ? { depth: event.webhookDepth } : {}),
    };
  }

  /* ------------------------------------------------------------ delivery */

  /** Works through one webhook's queue, one delivery at a time, oldest change first. */
  private pump(id: string): void {
    if (this.stopped || this.sending.has(id) || this.timers.has(id)) return;
    const head = this.state.pending[id]?.[0];
    if (!head) return;
    const wait = head.next_attempt ? Date.parse(head.next_attempt) - this.now().getTime() : 0;
    if (wait > 0) {
      this.timers.set(
        id,
        setTimeout(() => {
          this.timers.delete(id);
          this.pump(id);
        }, wait),
      );
      return;
    }
    this.sending.add(id);
    const attempt = this.attempt(id, head)
      .catch((error: unknown) =>
        this.options.logger({ level: 'error', msg: `webhook ${id}: ${(error as Error).message}` }),
      )
      .finally(() => {
        this.sending.delete(id);
        this.inFlight.delete(attempt);
        this.pump(id);
      });
    this.inFlight.add(attempt);
  }

  private async attempt(id: string, delivery: PendingDelivery): Promise<void> {
    const webhook = this.state.webhooks[id];
    if (!webhook) return; // deleted meanwhile: its queue went with it
    let result: TransportResult;
    try {
      const request = await webhookRequest(
        {
          payload_url: String(webhook.payload_url ?? ''),
          http_method: String(webhook.http_method ?? 'POST'),
          http_content_type: String(webhook.http_content_type ?? 'application/json'),
          additional_headers: String(webhook.additional_headers ?? ''),
          body_template: String(webhook.body_template ?? ''),
          secret: this.options.renderer.secret(webhook),
        },
        delivery.context,
        this.options.templates,
      );
      if (this.options.hopToken) {
        const deadline = Date.now() + (this.options.timeoutMs || HOP_TOKEN_WITHOUT_DEADLINE_MS);
        // Ours alone: a header template of the same name must not stand in for it.
        for (const name of Object.keys(request.headers)) {
          if (name.toLowerCase() === WEBHOOK_HOP_HEADER.toLowerCase()) delete request.headers[name];
        }
        request.headers[WEBHOOK_HOP_HEADER] = this.options.hopToken((delivery.depth ?? 0) + 1, deadline);
      }
      result = await this.options.send(request, {
        sslVerification: webhook.ssl_verification !== false,
        caFilePath: typeof webhook.ca_file_path === 'string' && webhook.ca_file_path ? webhook.ca_file_path : null,
        timeoutMs: this.options.timeoutMs,
        signal: this.abort.signal,
        refuseAddress: this.options.refuseAddress,
      });
    } catch (error) {
      // A template renders the same change the same way every time: retrying it would only
      // hold up the webhook's queue. A busy renderer is another matter: that is retried.
      const where = error instanceof TemplateError ? `${error.template}: ` : '';
      result = {
        status: null,
        error: `request not rendered: ${where}${(error as Error).message}`,
        final: error instanceof TemplateError,
      };
    }
    if (this.state.pending[id]?.[0] !== delivery) return; // the webhook was deleted while sending
    if (this.abort.signal.aborted) return; // stopped mid-request: not an attempt, sent again at the next start
    delivery.attempts += 1;
    delivery.last_attempt = this.now().toISOString();
    delivery.last_status_code = result.status;
    delivery.last_error = result.error;
    if (result.error === null) {
      delivery.status = 'delivered';
      delivery.next_attempt = null;
      this.finish(id);
    } else if (result.final || exhausted(delivery.attempts, this.options.maxAttempts)) {
      delivery.status = 'failed';
      delivery.next_attempt = null;
      this.finish(id);
      this.options.logger({
        level: 'warn',
        msg: `webhook ${id}: gave up delivering change ${delivery.position} after ${delivery.attempts} attempt(s): ${result.error}`,
      });
    } else {
      const delay = retryDelay(delivery.attempts, this.options.retryBaseMs, this.options.retryMaxMs);
      delivery.next_attempt = new Date(this.now().getTime() + delay).toISOString();
    }
    this.markDirty();
    this.saveLater();
  }

  private finish(id: string): void {
    const { context: _context, depth: _depth, ...record } = this.state.pending[id].shift()!;
    if (this.state.pending[id].length === 0) delete this.state.pending[id];
    const finished = (this.state.finished[id] ??= []);
    finished.unshift(record);
    finished.length = Math.min(finished.length, this.options.historyLimit ?? 1000);
  }

  /* ------------------------------------------------------------ persistence */

  private markDirty(): void {
    this.dirty = true;
    for (const listener of this.listeners) listener();
    this.listeners.clear();
  }

  /**
   * Changes are saved together, within SAVE_DELAY_MS (POSITION_SAVE_DELAY_MS if only the position moved), not one write each: the saved state
   * is always one consistent moment (a position with the queues it had then), so losing
   * the last moments in a crash means only that their changes are dispatched again and
   * their deliveries repeated, which at-least-once allows. A stop saves at once.
   */
  private saveLater(delay = SAVE_DELAY_MS): void {
    if (this.stopped) return;
    const due = Date.now() + delay;
    if (this.lazySave) {
      if (this.lazySaveDue <= due) return;
      clearTimeout(this.lazySave); // a change that matters is saved sooner than a moved position
    }
    this.lazySaveDue = due;
    this.lazySave = setTimeout(() => {
      this.lazySave = null;
      this.flush().then(
        () => (this.saveFailing = false),
        (error: unknown) => {
          // Once per outage (a full disk), not once per try; the next change tries again.
          if (!this.saveFailing)
            this.options.logger({
              level: 'error',
              msg: `webhook deliveries not saved (retried with the next change): ${(error as Error).message}`,
            });
          this.saveFailing = true;
          this.dirty = true;
        },
      );
    }, delay);
    this.lazySave.unref();
  }

  /**
   * Saves the state if it changed; concurrent callers share one write, and a change made
   * during it is written after. A write already under way is waited for even when nothing
   * changed since: a stop must not return while the state file is still being written.
   */
  private async flush(): Promise<void> {
    while (this.dirty || this.saving) {
      if (!this.saving) {
        this.dirty = false;
        this.saving = this.save().finally(() => (this.saving = null));
      }
      await this.saving;
    }
  }

  private async save(): Promise<void> {
    await saveDeliveryState(this.options.stateFile, this.state);
  }
}
