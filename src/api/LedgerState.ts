import type { Principal } from '../auth/authenticateToken.js';
import type { SessionData } from '../auth/sessions.js';
import type { WriteTarget } from '../commands/WriteCoordinator.js';
import type { EventUser } from '../events/ChangeEvent.js';
import type { LookupView } from '../models/lookupView.js';
import type { ReadStore } from '../projections/ReadStore.js';

/**
 * What the middleware leaves in `ctx.state` for the views, in the order a request
 * meets it (src/api/app.ts). Declared as koa's DefaultState, so every `ctx.state`
 * of the app is typed by it.
 */
export interface LedgerState {
  /** requestContext: the request's id (stamped on its events, echoed as X-Request-ID). */
  requestId: string;
  /** requestContext: scheme and host the client used, for the URLs in bodies. */
  baseUrl: string;
  /** authenticate: the committed read models, for permission checks. */
  authView?: LookupView;
  /** authenticate: the caller (null: anonymous). */
  principal?: Principal | null;
  /** authenticate: the caller as events name it. */
  eventUser?: EventUser;
  /** authenticate: the browser session, when the caller came with one, and its CSRF token. */
  session?: SessionData;
  csrfToken?: string;
  /** readJsonBody: the parsed JSON body (undefined: none). */
  body?: unknown;
  /** idempotency: the request's Idempotency-Key and body fingerprint, recorded on its events. */
  idempotency?: { key: string; fingerprint: string };
  /** idempotency: the id of the earlier request this one repeats (its answer is replayed). */
  replayOf?: string;
  /** webhookHop: when a webhook delivery sent the request, how many deliveries led to it (stamped on its events). */
  webhookDepth?: number;
  /** the audit API's `?as_of=`, or a branch's header: the read models the views read instead of the live ones. */
  readStore?: ReadStore;
  /** a model list or detail view: the answer came from the live read models alone (the answer cache may keep it). */
  answerCacheable?: boolean;
  /** branchHeader: the branch `X-NetBox-Branch` names, where the request's writes are decided. */
  branch?: WriteTarget;
}

declare module 'koa' {
  interface DefaultState extends LedgerState {}
}
