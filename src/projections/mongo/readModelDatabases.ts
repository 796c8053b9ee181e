/**
 * The database handles the read store reads through, each with the read concern the
 * store means, whatever the connection string says: `client.db()` copies the client's
 * options, so a `readConcernLevel=...` in MONGODB_URL (or a readConcern in the client
 * options) would otherwise reach every read.
 *
 * Through a snapshot session that matters most. The driver gives a session's read the
 * level `snapshot` only when the command carries no read concern of its own, and adds the
 * snapshot's time to the one it carries, in place (sessions.ts, applySession): with an
 * inherited `majority` or `local` a list's count and page are read at two moments (the
 * server pins no snapshot for them), and with an inherited `snapshot` the time lands on
 * the client's shared ReadConcern, so every later list reads that old moment until the
 * server has forgotten it (SnapshotTooOld). Transactions are not concerned: the store
 * starts them with an explicit read concern, which wins over the client's.
 */
import { type Db, type MongoClient, ReadConcern, type WriteConcernSettings } from 'mongodb';

/** A batch is visible once a majority has it on disk: an election cannot roll back what waitFor promised. */
export const MAJORITY_JOURNALED: WriteConcernSettings = { w: 'majority', journal: true };

export interface ReadModelDatabases {
  /** Plain reads and writes: majority reads on a replica set (only what an election cannot roll back), local on a standalone server. */
  db: Db;
  /** Reads in a snapshot session: no read concern of its own, so the driver gives each read a fresh `snapshot` one. */
  snapshotDb: Db;
}

export function readModelDatabases(client: MongoClient, dbName: string, transactional: boolean): ReadModelDatabases {
  const db = transactional
    ? client.db(dbName, { readConcern: new ReadConcern('majority'), writeConcern: MAJORITY_JOURNALED })
    : client.db(dbName, { readConcern: new ReadConcern('local') });
  // An own `undefined` replaces the client's read concern (the options are merged with Object.assign).
  const snapshotDb = client.db(dbName, { readConcern: undefined });
  return { db, snapshotDb };
}
