// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import { identityFields } from '../commonFields.js';
import { contentTypeIdFilter } from '../contentTypeIdFilter.js';
import type { FilterSpec } from '../filterTypes.js';
import type { ModelDefinition } from '../modelDefinition.js';
import { JOB_RESULT_STATUS_CHOICES } from './choices.js';

/**
 * The outcome of running a report or script. netledger runs neither, so the list is
 * always empty; it is still a real list (filters, ordering, pagination, 404 on a detail),
 * read-only, and not change-logged.
 */
export const jobresult: ModelDefinition = {
  key: 'extras.jobresult',
  app: 'extras',
  model: 'jobresult',
  path: 'job-results',
  verboseName: 'job result',
  verboseNamePlural: 'job results',
  readOnly: true,
  changeLogged: false,
  fields: [
    ...identityFields,
    {
      name: 'status',
      type: 'choice',
      readOnly: true,
      choices: JOB_RESULT_STATUS_CHOICES,
    },
    { name: 'created', type: 'datetime', readOnly: true },
    { name: 'scheduled', type: 'datetime', readOnly: true, nullable: true },
    { name: 'interval', type: 'integer', readOnly: true, nullable: true },
    { name: 'started', type: 'datetime', readOnly: true, nullable: true },
    { name: 'completed', type: 'datetime', readOnly: true, nullable: true },
    { name: 'name', type: 'string', readOnly: true, maxLength: 255 },
    { name: 'obj_type', type: 'content_type', readOnly: true, allowedTypes: ['extras.report', 'extras.script'] },
    { name: 'user', type: 'fk', target: 'auth.user', onDelete: 'SET_NULL', readOnly: true, nullable: true },
    { name: 'data', type: 'json', readOnly: true, nullable: true },
    { name: 'job_id', type: 'string', readOnly: true },
  ],
  // ?brief is ignored: the view has no brief form
  brief: [],
  ordering: ['-created', 'id'],
  orderingFields: [
    'id',
    'status',
    'created',
    'scheduled',
    'interval',
    'started',
    'completed',
    'name',
    'obj_type',
    'user',
    'data',
    'job_id',
  ],
  search: ['name'],
  filters: {
    interval: { kind: 'field', field: 'interval', value: 'integer', lookups: ['n', 'lt', 'lte', 'gt', 'gte'] },
    name: { kind: 'field', field: 'name', value: 'string' },
    // NetBox's model choice filter: an unknown user is a 400, 'null' selects jobs without one
    user: { kind: 'related', target: 'auth.user', path: ['user'], single: true },
    user_id: false,
    obj_type: contentTypeIdFilter('obj_type', { single: true }),
    obj_type_id: false,
    created: timeBound('created', '$eq'),
    created__before: timeBound('created', '$lte'),
    created__after: timeBound('created', '$gte'),
    scheduled: timeBound('scheduled', '$eq'),
    scheduled__before: timeBound('scheduled', '$lte'),
    scheduled__after: timeBound('scheduled', '$gte'),
    started: timeBound('started', '$eq'),
    started__before: timeBound('started', '$lte'),
    started__after: timeBound('started', '$gte'),
    completed: timeBound('completed', '$eq'),
    completed__before: timeBound('completed', '$lte'),
    completed__after: timeBound('completed', '$gte'),
  },
  hooks: {
    display: (obj) => String(obj.job_id ?? ''),
  },
};

/** One date and time compared with a timestamp field (the last value given counts). */
function timeBound(field: string, operator: '$eq' | '$lte' | '$gte'): FilterSpec {
  return {
    kind: 'method',
    value: 'datetime',
    single: true,
    method: (values) => ({ [field]: { [operator]: values[values.length - 1] } }),
  };
}
