/**
 * The event envelope: one event per changed object, named in the past tense by its
 * action (an object was created, updated or deleted). Every event of one HTTP
 * request carries that request's UUID and is appended in one atomic batch.
 */

/**
 * The version written by this code. Versions are additive: every version's events
 * are valid under the current schema and project the same way.
 *   1: the original envelope.
 *   2: adds the optional `revertOf` (the request a revert undid).
 *   3: adds the optional `idempotency` (the client's Idempotency-Key and request fingerprint).
 *   4: adds the optional `webhookDepth` (the change was requested by a webhook delivery).
 *   5: adds the optional `branch` (a change made inside a branch, which main's read models
 *      skip) and `mergedFrom` (a change on main applied by the merge of a branch).
 * See docs/events.md for the history and the rules.
 */
export const EVENT_SCHEMA_VERSION = 5;

/** Every envelope version ever written; readers (the projector, the audit index) accept all of them. */
export const EVENT_SCHEMA_VERSIONS: readonly number[] = [1, 2, 3, 4, 5];

export type ChangeAction = 'create' | 'update' | 'delete';

export interface EventUser {
  id: number;
  username: string;
}

export interface ChangeEvent {
  /** Envelope schema version. Versions are additive; readers accept every version ever written. */
  v: number;
  /** Unique id of this event (UUID). */
  eventId: string;
  /** Position in the log: 1, 2, 3 ... dense and totally ordered. Assigned by the single writer. */
  position: number;
  /** UUID of the HTTP request (or internal operation) that caused the change. */
  requestId: string;
  /** When the change was decided, ISO 8601 UTC with microseconds. */
  time: string;
  user: EventUser | null;
  action: ChangeAction;
  /** '<app>.<model>', e.g. 'dcim.site'. */
  objectType: string;
  objectId: number;
  /** The object's string form at the time of the change. */
  objectRepr: string;
  /** Stored form before the change (null for create). Secrets only as digests. */
  prechange: Record<string, unknown> | null;
  /** Stored form after the change (null for delete). Secrets only as digests. */
  postchange: Record<string, unknown> | null;
  /** The parent object change records name as related (e.g. the device of an interface). */
  related?: { type: string; id: number } | null;
  /** (v2) Set on the events of a revert: the UUID of the request whose changes they undo. */
  revertOf?: string | null;
  /**
   * (v3) The client's Idempotency-Key and a digest of the request it came with, so a
   * retry after a restart is still recognised and answered without writing again.
   */
  idempotency?: { key: string; fingerprint: string } | null;
  /**
   * (v4) Set when the request came from a webhook delivery (its signed hop header): how
   * many deliveries led to this change (1: a delivery of a change a client made). The
   * delivery worker fires no webhook for a change at WEBHOOK_MAX_DEPTH or deeper, so a
   * webhook whose receiver writes to the service again cannot multiply changes without end.
   */
  webhookDepth?: number | null;
  /**
   * (v5) Set on a change made inside a branch (README: Branches): the branch's `schema_id`.
   * Main's read models, audit replays and webhooks skip it; the branch's view applies it.
   */
  branch?: string | null;
  /** (v5) Set on a change a branch's merge made on main: the merged branch's `schema_id`. */
  mergedFrom?: string | null;
}

/** A change made on main (not inside a branch): what main's read models, past states and webhooks apply. */
export function onMain(event: ChangeEvent): boolean {
  return !event.branch;
}

/** JSON Schema of the envelope; served to consumers and enforced on append and on consume. */
export const changeEventSchema = {
  $id: 'https://netledger.dev/schemas/change-event/v5.json',
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'netledger change event',
  description:
    'One changed object. Every event of one request shares its requestId and is committed atomically; positions are dense and totally ordered. ' +
    'Versions are additive: events of every earlier version validate against this schema.',
  type: 'object',
  required: [
    'v',
    'eventId',
    'position',
    'requestId',
    'time',
    'user',
    'action',
    'objectType',
    'objectId',
    'objectRepr',
    'prechange',
    'postchange',
  ],
  properties: {
    v: {
      type: 'integer',
      minimum: 1,
      description: `Envelope schema version (one of ${EVENT_SCHEMA_VERSIONS.join(', ')}).`,
    },
    eventId: { type: 'string', format: 'uuid', description: 'Unique id of this event.' },
    position: {
      type: 'integer',
      minimum: 1,
      description: 'Position in the log: 1, 2, 3 ... dense, assigned by the single writer.',
    },
    requestId: {
      type: 'string',
      format: 'uuid',
      description: 'The X-Request-ID of the request that caused the change.',
    },
    time: {
      type: 'string',
      format: 'date-time',
      description: 'When the change was decided, ISO 8601 UTC with microseconds.',
    },
    user: {
      description: 'The acting user, null for internal operations (e.g. the first superuser).',
      anyOf: [
        { type: 'null' },
        {
          type: 'object',
          required: ['id', 'username'],
          properties: { id: { type: 'integer' }, username: { type: 'string' } },
        },
      ],
    },
    action: { enum: ['create', 'update', 'delete'] },
    objectType: {
      type: 'string',
      pattern: '^[a-z][a-z0-9_]*\\.[a-z][a-z0-9_]*$',
      description: "Content type '<app_label>.<model>', e.g. 'dcim.site'.",
    },
    objectId: { type: 'integer', minimum: 1 },
    objectRepr: {
      type: 'string',
      description: "The object's string form at the time of the change (at most 200 characters).",
    },
    prechange: {
      type: ['object', 'null'],
      description: 'Stored form before the change (null for create); secrets only as keyed digests.',
    },
    postchange: {
      type: ['object', 'null'],
      description: 'Stored form after the change (null for delete); secrets only as keyed digests.',
    },
    related: {
      description: 'The parent object (e.g. the device of an interface), or null.',
      anyOf: [
        { type: 'null' },
        {
          type: 'object',
          required: ['type', 'id'],
          properties: { type: { type: 'string' }, id: { type: 'integer' } },
        },
      ],
    },
    revertOf: {
      description: '(v2) On the events of a revert: the requestId of the request being undone.',
      anyOf: [{ type: 'null' }, { type: 'string', format: 'uuid' }],
    },
    idempotency: {
      description:
        "(v3) The request's Idempotency-Key header and a SHA-256 digest of its method, path, query and body.",
      anyOf: [
        { type: 'null' },
        {
          type: 'object',
          required: ['key', 'fingerprint'],
          properties: {
            key: { type: 'string', maxLength: 255 },
            fingerprint: { type: 'string', pattern: '^[0-9a-f]{64}$' },
          },
        },
      ],
    },
    webhookDepth: {
      description: '(v4) Set when a webhook delivery requested the change: how many deliveries led to it (1 and up).',
      anyOf: [{ type: 'null' }, { type: 'integer', minimum: 1 }],
    },
    branch: {
      description: "(v5) Made inside a branch: the branch's schema_id. Main's read models do not apply it.",
      anyOf: [{ type: 'null' }, { type: 'string', pattern: '^[a-z0-9]{8}$' }],
    },
    mergedFrom: {
      description: "(v5) Made on main by the merge of a branch: that branch's schema_id.",
      anyOf: [{ type: 'null' }, { type: 'string', pattern: '^[a-z0-9]{8}$' }],
    },
  },
  additionalProperties: true,
} as const;
