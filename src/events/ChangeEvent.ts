/**
 * The event envelope: one event per changed object, named in the past tense by its
 * action (an object was created, updated or deleted). Every event of one HTTP
 * request carries that request's UUID and is appended in one atomic batch.
 */

export const EVENT_SCHEMA_VERSION = 1;

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
}

/** JSON Schema of the envelope; served to consumers and enforced on append and on consume. */
export const changeEventSchema = {
  $id: 'https://netledger.dev/schemas/change-event/v1.json',
  title: 'netledger change event',
  type: 'object',
  required: [
    'v', 'eventId', 'position', 'requestId', 'time', 'user', 'action',
    'objectType', 'objectId', 'objectRepr', 'prechange', 'postchange',
  ],
  properties: {
    v: { type: 'integer', minimum: 1 },
    eventId: { type: 'string', format: 'uuid' },
    position: { type: 'integer', minimum: 1 },
    requestId: { type: 'string', format: 'uuid' },
    time: { type: 'string', format: 'date-time' },
    user: {
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
    objectType: { type: 'string', pattern: '^[a-z][a-z0-9_]*\\.[a-z][a-z0-9_]*$' },
    objectId: { type: 'integer', minimum: 1 },
    objectRepr: { type: 'string' },
    prechange: { type: ['object', 'null'] },
    postchange: { type: ['object', 'null'] },
    related: {
      anyOf: [
        { type: 'null' },
        {
          type: 'object',
          required: ['type', 'id'],
          properties: { type: { type: 'string' }, id: { type: 'integer' } },
        },
      ],
    },
  },
  additionalProperties: true,
} as const;
