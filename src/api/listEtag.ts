/**
 * Conditional GET on list views. A page's entity tag is the read position it was answered
 * at, with a digest of everything else the page depends on: the path and query, the caller
 * (permissions narrow what a list shows), the negotiated form, the base URL its links use
 * and this process's start (configuration such as page sizes). Every change anywhere moves
 * the position, so the tag is conservative: the same tag means the same page, and a client
 * that polls a list gets 304 until something was written.
 */
import { createHash, randomUUID } from 'node:crypto';

const PROCESS = randomUUID();

export interface ListRequest {
  position: number;
  path: string;
  querystring: string;
  caller: string;
  accept: string;
  baseUrl: string;
}

export function listEtag(request: ListRequest): string {
  const digest = createHash('sha256')
    .update(
      [PROCESS, request.path, request.querystring, request.caller, request.accept, request.baseUrl].join('\u0000'),
    )
    .digest('base64url')
    .slice(0, 22);
  return `W/"p${request.position}.${digest}"`;
}

/** Whether If-None-Match names this tag (weak comparison, as GET uses; `*` names any). */
export function ifNoneMatchHolds(header: string, etag: string): boolean {
  if (!header) return false;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  const wanted = bare(etag);
  return header.split(',').some((tag) => tag.trim() === '*' || bare(tag) === wanted);
}
