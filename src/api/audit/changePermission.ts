import type { Context } from 'koa';

import type { AuditService } from '../../audit/AuditService.js';
import { changeScopeTest, type ChangeTest } from '../../audit/changeScope.js';
import { PermissionDeniedError } from '../../errors/requestErrors.js';
import type { ModelDefinition } from '../../models/modelDefinition.js';
import type { Query } from '../../projections/ReadStore.js';
import { viewScope } from '../permissions.js';
import type { ParameterResolver } from '../query/ListQueryCompiler.js';
import type { Services } from '../Services.js';

/**
 * extras.objectchange is served from the event log, not from a read model: it is not a
 * registry model. This definition only names it for permission checks; its fields are the
 * columns of a change record (src/audit/changeScope.ts) that permission constraints may
 * test, e.g. `{"action": "create"}`, `{"user": "$user"}`, `{"changed_object_type": "dcim.site"}`.
 */
export const objectChangeModel: ModelDefinition = {
  key: 'extras.objectchange',
  app: 'extras',
  model: 'objectchange',
  path: 'object-changes',
  verboseName: 'object change',
  verboseNamePlural: 'object changes',
  fields: [
    { name: 'id', type: 'id', readOnly: true },
    { name: 'time', type: 'datetime', readOnly: true },
    { name: 'user', type: 'fk', target: 'auth.user', nullable: true, readOnly: true },
    { name: 'user_name', type: 'string', readOnly: true },
    { name: 'request_id', type: 'string', readOnly: true },
    { name: 'action', type: 'choice', readOnly: true, choices: [] },
    { name: 'changed_object_type', type: 'content_type', readOnly: true },
    { name: 'changed_object_id', type: 'integer', readOnly: true },
    { name: 'object_repr', type: 'string', readOnly: true },
  ],
  brief: [],
  ordering: ['-time'],
  readOnly: true,
};

/**
 * The one gate of every read of change records: 403 without `extras.view_objectchange`,
 * else the records its constraints select, as a test over log positions (null: every
 * record, as NetBox 3.4 shows them to any holder of an unconstrained permission). Every
 * door that shows change records narrows by this test, so a list, its count, the feed and
 * a request summary show the same records a detail read allows.
 */
export async function readableChanges(
  ctx: Context,
  services: Services,
  audit: AuditService,
): Promise<ChangeTest | null> {
  return changesWithin(audit, await viewScope(ctx, services.config, objectChangeModel));
}

/** The records a view scope of extras.objectchange selects, as a test over log positions (null: every record). */
function changesWithin(audit: AuditService, scope: Query): ChangeTest | null {
  return changeScopeTest(audit.log.index, scope);
}

/**
 * `?created_by_request=` on model lists. It lists objects, which the model's view
 * permission governs, so callers without `extras.view_objectchange` may use it as before
 * (a client finds out what its own write did); but what it reveals of a request comes
 * from change records, so a holder of a constrained permission learns only what the
 * records within its constraints tell.
 */
export function createdByRequestFilter(audit: AuditService): ParameterResolver {
  return async (values, definition, request) => {
    let readable: ChangeTest | null = null;
    try {
      readable = changesWithin(audit, await request.viewScope(objectChangeModel));
    } catch (error) {
      if (!(error instanceof PermissionDeniedError)) throw error;
    }
    return audit.createdByRequest(values, definition, readable);
  };
}
