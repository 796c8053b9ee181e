/**
 * What kind of MongoDB deployment the store talks to, from the `hello` answer. Only
 * a replica set (or a sharded cluster behind mongos) has transactions, which make a
 * request's changes and the projector's position visible together; a standalone
 * server shows them one document at a time.
 */
import type { Document } from 'mongodb';

export type DeploymentKind = 'replicaSet' | 'sharded' | 'standalone';

export function deploymentKind(hello: Document): DeploymentKind {
  if (typeof hello.setName === 'string') return 'replicaSet';
  if (hello.msg === 'isdbgrid') return 'sharded';
  return 'standalone';
}

export class StandaloneMongoRefusedError extends Error {
  constructor() {
    super(
      "MongoDB is a standalone server, not a replica set: without transactions a request's changes would become visible " +
        'one document at a time (a reader could see half of a request, and a list count disagree with its page). ' +
        'Run MongoDB as a replica set (a single node is enough: mongod --replSet rs0, then rs.initiate() once) ' +
        'or set MONGODB_ALLOW_STANDALONE=1 to accept that for development.',
    );
    this.name = 'StandaloneMongoRefusedError';
  }
}
